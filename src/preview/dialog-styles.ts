/**
 * Styles of the preview dialogs, rendered once in a <style> element by PreviewDialogs so the island
 * needs no CSS pipeline. Contrast (WCAG AA needs 4.5:1 for text): #1f1f1f on #fff ≈ 16:1, #fff on
 * #663399 ≈ 8.4:1, #5c5c5c on #fff ≈ 6.7:1, #b00020 on #fff ≈ 7.2:1. The incorrect-token state
 * is a red border plus the words 'Incorrect token' and aria-invalid, never colour alone. The help
 * link stands alone on its line, so it gets a 24 px target (WCAG 2.2 target size).
 */
export const PREVIEW_DIALOG_CSS = `
.nzf-dialog{border:0;padding:0;margin:auto;max-width:min(32rem,calc(100vw - 2rem));width:100%;background:transparent;color:#1f1f1f;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.nzf-dialog:not([open]){display:none}
.nzf-dialog[open]{position:fixed;inset:0;height:fit-content;max-height:calc(100% - 2rem);overflow:auto;z-index:2147483647}
.nzf-dialog::backdrop{background:rgba(0,0,0,.6)}
.nzf-dialog__panel{background:#fff;border-radius:.5rem;box-shadow:0 10px 30px rgba(0,0,0,.3);padding:1.5rem}
.nzf-dialog__title{margin:0 0 .5rem;font-size:1.25rem;line-height:1.3;font-weight:700}
.nzf-dialog__text{margin:0 0 1rem}
.nzf-dialog__repository{margin:0 0 1rem;color:#5c5c5c}
.nzf-dialog__label{display:block;font-weight:600;margin-bottom:.25rem}
.nzf-dialog__input{display:block;width:100%;box-sizing:border-box;padding:.5rem .75rem;border:2px solid #5c5c5c;border-radius:.25rem;font:inherit;color:#1f1f1f;background:#fff}
.nzf-dialog__input--incorrect{border-color:#b00020;border-width:3px}
.nzf-dialog__field-error{margin:.25rem 0 0;color:#b00020;font-weight:600}
.nzf-dialog__field-error::before{content:"\\26A0\\FE0E  "}
.nzf-dialog__error-message{margin:0 0 1rem;padding:.5rem .75rem;border-left:4px solid #b00020;background:#fdf2f4;color:#1f1f1f;overflow-wrap:anywhere}
.nzf-dialog__link{display:inline-block;min-height:24px;line-height:24px;color:#663399;text-decoration:underline}
.nzf-dialog__actions{display:flex;gap:.75rem;justify-content:flex-end;margin-top:1.25rem;flex-wrap:wrap}
.nzf-dialog__button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.25rem;border:2px solid #663399;background:#fff;color:#663399;cursor:pointer}
.nzf-dialog__button--primary{background:#663399;color:#fff}
.nzf-dialog__button:focus-visible,.nzf-dialog__input:focus-visible,.nzf-dialog__link:focus-visible{outline:3px solid #1f1f1f;outline-offset:2px}
.nzf-dialog__spinner{width:2rem;height:2rem;margin:0 0 1rem;border:4px solid #d9c8ea;border-top-color:#663399;border-radius:50%;animation:nzf-spin 1s linear infinite}
.nzf-dialog__footer{display:flex;justify-content:space-between;gap:1rem;margin-top:1.25rem;padding-top:.75rem;border-top:1px solid #d6d6d6;font-size:.875rem;color:#5c5c5c}
@keyframes nzf-spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.nzf-dialog__spinner{animation:none}}
`;
