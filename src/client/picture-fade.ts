/**
 * Run by src/client/entries/page-scripts.ts, the one script a page runs while it loads.
 *
 * Fades each picture's blurred placeholder into the loaded image over 500 ms (the CSS in
 * templates/styles/images.css does the fading; this only says when). Without this script, or with
 * JavaScript off, images simply paint over their placeholder: nothing is hidden. No inline handlers,
 * so it works under a strict Content-Security-Policy.
 *
 * Only the pictures still loading when the script runs are marked (`nzf-pending`, which hides the
 * image until it arrives); the rest are marked loaded. A class on <html> instead restyled the whole
 * page at once: main-thread work on /calculate/ that made a long task in Lighthouse's trace.
 */
const PICTURE = ".nzf-picture";

function loaded(img: Element, failed = false): void {
  const picture = img.closest(PICTURE);
  if (!picture) return;
  picture.classList.remove("nzf-pending");
  picture.classList.add("nzf-loaded");
  // A broken image is shown too (its alternative text), without the placeholder behind it.
  if (failed) picture.classList.add("nzf-broken");
}

function onLoadOrError(event: Event): void {
  const target = event.target;
  if (target instanceof HTMLImageElement && target.classList.contains("nzf-image"))
    loaded(target, event.type === "error");
}

export function fadePictures(): void {
  // load and error do not bubble, but they can be caught on the way down.
  document.addEventListener("load", onLoadOrError, true);
  document.addEventListener("error", onLoadOrError, true);
  // A module script runs once the document is parsed, so every picture is here. Images finished
  // already are marked in this same frame, so they never blink.
  for (const img of document.querySelectorAll<HTMLImageElement>("img.nzf-image")) {
    if (img.complete) loaded(img, img.naturalWidth === 0);
    else img.closest(PICTURE)?.classList.add("nzf-pending");
  }
}
