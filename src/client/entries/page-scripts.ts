/**
 * The one script a page requests while it loads (about 5 KB, 2.2 KB gzip, no imports at run time). It fades
 * pictures in as they arrive (src/client/picture-fade.ts: that has to start before they do), and once
 * the page has loaded and its first paint is on screen it starts the rest: the site-wide scripts
 * bundled in here (the service worker registration, the tag manager, the preview loader, in
 * src/client/site/) and the page's islands, named on this script's element (templates/document.ts).
 *
 * Why wait: every script fetched while the page loads shares a slow connection with the stylesheet
 * and the main image, the two things a donor sees first. Lighthouse's mobile run showed it: with the
 * scripts fetched alongside the page, the pay page's largest contentful paint was later in every run
 * than with them started after the first paint. Islands hydrate on first use anyway
 * (src/client/hydrate.ts), so nothing the donor needs waits on them, with one exception handled here:
 * a donor who reaches into an island before its code has arrived starts the loading at once, and
 * that island hydrates as soon as its code runs, taking over what they typed meanwhile.
 *
 * Why the site-wide scripts are bundled in rather than fetched: they are small and every page runs
 * them. As three modules of their own they cost three requests and three module tasks on every page;
 * in Lighthouse's mobile runs of /pay/zakat/ and /, bundled in, the main thread did less work in
 * fewer tasks.
 */
import { fadePictures } from "../picture-fade.js";
import { enhanceMenu } from "../site/menu.js";
import { registerServiceWorker } from "../site/service-worker-registration.js";
import { startTagManager } from "../site/tag-manager.js";
import { loadPreviewWhenWanted } from "../site/preview-loader.js";

/** This script's own element: it carries one of these whenever the page has something to start. */
const SCRIPT = "script[data-site-scripts], script[data-page-modules]";
/**
 * Started anyway this long after the first paint when the load event has not come (an image that
 * hangs on a poor connection), and this long after the load event should no first paint be reported.
 */
const WAIT_MS = 3000;
/** The first signs of a visitor using the page, caught on their way down to any element. */
const FIRST_USE = ["pointerdown", "focusin", "keydown"] as const;

const element = document.querySelector<HTMLScriptElement>(SCRIPT);
const list = (value: string | undefined) => (value ?? "").split(" ").filter(Boolean);
const modules = list(element?.dataset.pageModules);
const chunks = list(element?.dataset.pageChunks);
/** Absent on a redirect page, which leaves at once: no tag manager page view, no worker registration. */
const siteScripts = element?.hasAttribute("data-site-scripts") ?? false;
const SITE_SCRIPTS: [string, () => void][] = [
  ["service worker registration", registerServiceWorker],
  ["tag manager", startTagManager],
  ["preview loader", loadPreviewWhenWanted],
];
let started = false;

/**
 * Runs `run` in a task of its own. Lighthouse's mobile run counts every task over 50 ms on its 4x
 * slowed CPU as blocking, so the loader's work is cut into small ones: each request a page starts
 * costs the browser some main-thread work, and the site-wide scripts together with the islands'
 * start made one long task on /calculate/ (split, the total blocking time fell by about half).
 */
function inTaskOfItsOwn(name: string, run: () => void): void {
  setTimeout(() => {
    // One that fails must not stop the others.
    try {
      run();
    } catch (error) {
      console.error(`The ${name} failed; the page works without it, reload to try again.`, error);
    }
  }, 0);
}

function start(): void {
  if (started) return;
  started = true;
  for (const type of FIRST_USE) document.removeEventListener(type, onFirstUse, true);
  // The islands first, in the order of these tasks: a donor may be waiting on one. The chunks the
  // modules import are fetched alongside them rather than after them.
  for (const href of chunks) {
    inTaskOfItsOwn(`preload of ${href}`, () => {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    });
  }
  for (const url of modules) {
    inTaskOfItsOwn(`start of ${url}`, () => {
      // A module that fails (a flaky connection) must not stop the others; say which one, for developers.
      import(/* @vite-ignore */ url).catch((error: unknown) =>
        console.error(`The script ${url} could not be loaded; the page works without it, reload to try again.`, error),
      );
    });
  }
  for (const [name, run] of siteScripts ? SITE_SCRIPTS : []) inTaskOfItsOwn(name, run);
}

function onFirstUse(event: Event): void {
  const island = event.target instanceof Element ? event.target.closest<HTMLElement>("[data-island]") : null;
  // Read by src/client/hydrate.ts: hydrate this island as soon as its code runs.
  if (island) island.dataset.usedEarly = "true";
  start();
}

/** Calls `then` once the first contentful paint has been presented (or after the next frame, where the browser does not report paints). */
function afterFirstPaint(then: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) {
    requestAnimationFrame(() => setTimeout(then, 0));
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (!entries.getEntriesByName("first-contentful-paint").length) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: "paint", buffered: true });
}

function afterLoad(then: () => void): void {
  if (document.readyState === "complete") then();
  else window.addEventListener("load", () => then(), { once: true });
}

/**
 * An island's form that is submitted before its code has run would be sent by the browser itself:
 * a GET to this page with every field in the address, where logs and history keep it. Hold it back,
 * mark what submitted it, and start the code: the island submits it again once it has taken over
 * (src/client/hydrate.ts), so a donor whose first tap was "Continue" is not left waiting.
 */
document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.hasAttribute("action")) return;
    const island = form.closest<HTMLElement>("[data-island]");
    if (!island || island.dataset.hydrated === "true") return;
    event.preventDefault();
    ((event as SubmitEvent).submitter ?? form).setAttribute("data-held-submit", "");
    island.dataset.usedEarly = "true";
    start();
  },
  true,
);

fadePictures();
enhanceMenu();
if (modules.length || siteScripts) {
  for (const type of FIRST_USE) document.addEventListener(type, onFirstUse, true);
  afterFirstPaint(() => {
    afterLoad(start);
    setTimeout(start, WAIT_MS);
  });
  afterLoad(() => setTimeout(start, WAIT_MS));
}
