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
  ["e-mail updates sign-up", loadUpdatesSignUp],
];

/**
 * The footer's sign-up (src/client/site/updates-signup.ts) is on every page of a build with the
 * payments service, but its code is fetched apart, once the page has started: bundled in here it
 * made this script, which every page waits on, a fifth bigger.
 */
function loadUpdatesSignUp(): void {
  if (!document.querySelector("[data-updates-signup]")) return;
  import("../site/updates-signup.js").then(
    (m) => m.enhanceUpdatesSignUp(),
    (error: unknown) => console.error("The e-mail updates sign-up could not be loaded.", error),
  );
}
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
      import(/* @vite-ignore */ url).catch((error: unknown) => islandFailed(url, error));
    });
  }
  for (const [name, run] of siteScripts ? SITE_SCRIPTS : []) inTaskOfItsOwn(name, run);
}

/**
 * An island's code that does not load (a deploy replaced it, a flaky connection) leaves a form
 * that looks ready and does nothing. As on the Gatsby site, a failed chunk load goes to the path
 * in one full navigation, which fetches the page and its scripts afresh. Guarded against a loop: a
 * mark in sessionStorage (or, where storage is refused, a query flag) says the page was reloaded
 * for this; when the code fails again, each island says so and offers the contact page instead.
 */
const RELOAD_MARK = "nzf-island-reload";
const RELOAD_FLAG = "nzf-reloaded";
/** A mark older than this is from an earlier visit: that failure may retry once more. */
const MARK_LIFETIME_MS = 60_000;
let failureShown = false;

function islandFailed(url: string, error: unknown): void {
  console.error(`The script ${url} could not be loaded.`, error);
  if (failureShown) return;
  if (!reloadedForThis()) return reloadOnce();
  failureShown = true;
  forgetReload();
  for (const island of document.querySelectorAll<HTMLElement>("[data-island]")) {
    if (island.dataset.hydrated === "true") continue;
    island.dataset.islandFailed = "true";
    const message = document.createElement("p");
    message.className = "island-failed";
    message.setAttribute("role", "alert");
    message.tabIndex = -1;
    message.append("This part of the page could not load. Please try again later, or ");
    const contact = document.createElement("a");
    contact.href = "/contact/";
    contact.textContent = "contact us";
    message.append(contact, " and we will help.");
    island.prepend(message);
  }
}

function reloadedForThis(): boolean {
  try {
    const at = Number(sessionStorage.getItem(`${RELOAD_MARK}:${location.pathname}`));
    return at > 0 && Date.now() - at < MARK_LIFETIME_MS;
  } catch {
    return new URLSearchParams(location.search).has(RELOAD_FLAG);
  }
}

function reloadOnce(): void {
  try {
    sessionStorage.setItem(`${RELOAD_MARK}:${location.pathname}`, String(Date.now()));
    location.reload();
  } catch {
    const url = new URL(location.href);
    url.searchParams.set(RELOAD_FLAG, "1");
    location.replace(url.href);
  }
}

function forgetReload(): void {
  try {
    sessionStorage.removeItem(`${RELOAD_MARK}:${location.pathname}`);
  } catch {
    // Storage refused: the query flag stays in this page's address, which is all it affects.
  }
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
    // Its code could not load: the button answers with the message and the way to the contact page.
    if (island.dataset.islandFailed === "true") {
      island.querySelector<HTMLElement>(".island-failed")?.focus();
      return;
    }
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
