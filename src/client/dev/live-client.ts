/**
 * Watch mode's script in the browser (served at /__nzf/reload.js by src/watch/live-reload.ts, which
 * adds it to every page the dev server sends; no build of the site bundles it). It listens to the
 * server's events (/__nzf/events):
 * - `update`, after each rebuild: fetches this page again and takes the new version in place. A new
 *   stylesheet replaces the old once it has loaded (no reload, no flash); the body is morphed
 *   (src/client/dev/morph.ts), so elements that survive keep focus and typed values; an island whose
 *   code or props changed is mounted again on its own, with what was typed (src/client/dev/islands.ts).
 *   A new page script, a page that is gone, or anything that fails reloads the page instead.
 * - `reload`: the first build is ready, or nzf-build restarted: the page reloads. The "Building…"
 *   page (marked `nzf-building`) asks for itself again once it listens, since the first build may
 *   have finished, and sent its `reload`, before this script had connected.
 * - `error-shown` / `error-cleared`: the last rebuild's error over the page, and its removal.
 * Each reload says why in the console (info), for the developer wondering why the page reloaded.
 */
import { changedIslands, pageScriptOf, remountIslands } from "./islands.js";
import { morphElement } from "./morph.js";

const source = new EventSource("/__nzf/events");
let overlay: HTMLElement | undefined;

function showError(text: string): void {
  overlay ??= Object.assign(document.createElement("pre"), { id: "nzf-build-error", role: "alert" });
  overlay.style.cssText =
    "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;margin:0;padding:1rem;background:#2b0b0b;color:#fff;font:14px/1.4 monospace;z-index:2147483647;white-space:pre-wrap";
  overlay.textContent = `nzf-build: the last change did not build\n\n${text}`;
  document.body.append(overlay);
}

function reload(why: string): void {
  console.info(`nzf-build: reloading the page: ${why}`);
  location.reload();
}

/** Puts the new stylesheets in, and takes the old ones out once the new have loaded. */
function swapStylesheets(next: Document): Promise<void> {
  const selector = 'link[rel="stylesheet"]';
  const live = [...document.head.querySelectorAll<HTMLLinkElement>(selector)];
  const wanted = [...next.head.querySelectorAll<HTMLLinkElement>(selector)];
  const href = (link: HTMLLinkElement) => link.getAttribute("href");
  const liveHrefs = new Set(live.map(href));
  const wantedHrefs = new Set(wanted.map(href));
  let after: Element | null = live.at(-1) ?? null;
  const loads = wanted
    .filter((link) => !liveHrefs.has(href(link)))
    .map((link) => {
      const added = document.importNode(link, true);
      const loaded = new Promise<void>((resolve) => {
        added.addEventListener("load", () => resolve(), { once: true });
        added.addEventListener("error", () => resolve(), { once: true });
      });
      if (after) after.after(added);
      else document.head.append(added);
      after = added;
      return loaded;
    });
  return Promise.all(loads).then(() => {
    for (const link of live) if (!wantedHrefs.has(href(link))) link.remove();
  });
}

async function update(): Promise<void> {
  const response = await fetch(location.href, { cache: "no-store", headers: { accept: "text/html" } });
  if (response.status >= 500 || !(response.headers.get("content-type") ?? "").startsWith("text/html"))
    return reload(`the page answered ${response.status}`);
  const next = new DOMParser().parseFromString(await response.text(), "text/html");
  if (pageScriptOf(next) !== pageScriptOf(document)) return reload("the page script changed");
  const styles = swapStylesheets(next);
  const islands = changedIslands(next);
  if (document.title !== next.title) document.title = next.title;
  for (const name of ["lang", "dir"]) {
    const value = next.documentElement.getAttribute(name);
    if (value === null) document.documentElement.removeAttribute(name);
    else if (document.documentElement.getAttribute(name) !== value) document.documentElement.setAttribute(name, value);
  }
  morphElement(document.body, next.body, {
    isOpaque: (element) => element.hasAttribute("data-island"),
    keep: (node) => node === overlay,
  });
  await remountIslands(islands);
  await styles;
}

// Updates one at a time; builds that finish meanwhile are taken in one more update.
let running: Promise<void> | null = null;
let again = false;
function queueUpdate(): void {
  if (running) {
    again = true;
    return;
  }
  running = update()
    .catch((error: unknown) => reload(`the update failed: ${(error as Error).message}`))
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        queueUpdate();
      }
    });
}

source.addEventListener("update", queueUpdate);
source.addEventListener("reload", () => reload("asked by watch mode"));
// Lost and found again: watch mode restarted (nzf-build recompiled itself), so the site may have changed.
let lost = false;
source.addEventListener("error", () => {
  lost = true;
});
source.addEventListener("open", () => {
  if (lost) return reload("watch mode restarted");
  // Still "Building…" while the server answers: watch mode sends the page's reload when it is ready.
  if (document.querySelector('meta[name="nzf-building"]'))
    void fetch(location.href, { cache: "no-store", headers: { accept: "text/html" } }).then(
      (response) => response.status !== 503 && reload("the site was ready before this page listened"),
      () => undefined,
    );
});
source.addEventListener("error-shown", (event) => showError(JSON.parse((event as MessageEvent<string>).data)));
source.addEventListener("error-cleared", () => overlay?.remove());
