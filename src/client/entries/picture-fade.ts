/**
 * Fades each picture's blurred placeholder into the loaded image over 500 ms (the CSS in
 * templates/styles/images.css does the fading; this only says when). Without this script, or with
 * JavaScript off, images simply paint over their placeholder: nothing is hidden. No inline handlers,
 * so it works under a strict Content-Security-Policy.
 */
const PICTURE = ".nzf-picture";

function loaded(img: Element): void {
  img.closest(PICTURE)?.classList.add("nzf-loaded");
}

function onLoadOrError(event: Event): void {
  const target = event.target;
  if (target instanceof HTMLImageElement && target.classList.contains("nzf-image")) loaded(target);
}

// load and error do not bubble, but they can be caught on the way down.
document.addEventListener("load", onLoadOrError, true);
document.addEventListener("error", onLoadOrError, true);

function sweep(): void {
  for (const img of document.querySelectorAll<HTMLImageElement>("img.nzf-image")) if (img.complete) loaded(img);
}

// Images finished before this script ran are marked in the same frame as the fade class is added,
// so they never blink.
sweep();
document.documentElement.classList.add("nzf-fade");
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sweep, { once: true });

export {};
