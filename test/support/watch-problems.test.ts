/**
 * `watchProblems` (browser.ts) tells a script the browser cancelled because the page moved on from
 * a script that failed. Chromium reports the cancellation (requestfailed, net::ERR_ABORTED) before
 * it reports the navigation that caused it (framenavigated): a watcher that counted navigations only
 * by framenavigated counted every such cancellation as a failure (a CI run failed on it in
 * account-giving). Driven in real Chromium against a small local server, and once with the events
 * in exactly that order.
 */
import { EventEmitter } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { isolatedContext, launchBrowser, watchProblems } from "./browser.js";

/** Responses to /held.js, kept open until the file ends: a script still loading when the page moves on. */
const held: ServerResponse[] = [];
let server: Server;
let base: string;
let browser: Browser;
let context: BrowserContext;

/** A page that fetches `chunk` once it has loaded, as an island fetches a script on demand. */
const pageFetching = (chunk: string): string =>
  `<!doctype html><html lang="en"><title>page</title><script>addEventListener("load", () => {
    const s = document.createElement("script"); s.src = ${JSON.stringify(chunk)}; document.head.append(s);
  });</script><p>page</p></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/held.js") return void held.push(res);
    if (url.pathname === "/ok.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end("");
    if (url.pathname === "/missing.js") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html" });
    res.end(url.searchParams.has("chunk") ? pageFetching(url.searchParams.get("chunk")!) : "<!doctype html><p>plain");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  context = await isolatedContext(browser);
});

afterAll(async () => {
  for (const res of held) res.destroy();
  await context?.close();
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Opens a page that fetches `chunk`, and waits until the browser has asked for it. */
async function openFetching(page: Page, chunk: string): Promise<void> {
  const asked = page.waitForRequest((req) => req.url().endsWith(chunk));
  await page.goto(`${base}/?chunk=${encodeURIComponent(chunk)}`);
  await asked;
}

describe("watchProblems in Chromium", () => {
  it("does not count a script still loading when the page navigates elsewhere", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    const order: string[] = [];
    page.on("requestfailed", (req) => order.push(`failed ${new URL(req.url()).pathname}`));
    page.on("framenavigated", (frame) => frame === page.mainFrame() && order.push("navigated"));
    await openFetching(page, "/held.js");
    order.length = 0;
    await page.goto(`${base}/plain`);
    // Let any late event arrive before the watcher is read.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    // The cancellation was reported (before the navigation, as Chromium does), and not counted.
    expect(order).toContain("failed /held.js");
    expect(seen.failedRequests).toEqual([]);
    await page.close();
  });

  it("does not count it when the page goes to the same address again", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openFetching(page, "/held.js");
    const cancelled = page.waitForEvent("requestfailed");
    await page.goto(page.url());
    expect((await cancelled).failure()?.errorText).toBe("net::ERR_ABORTED");
    expect(seen.failedRequests).toEqual([]);
    await page.close();
  });

  it("counts a script that answers 404", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openFetching(page, "/missing.js");
    // (Chromium then also reports the script's body as aborted: either way it counts.)
    await expect.poll(() => seen.failedRequests).toContain(`${base}/missing.js: HTTP 404`);
    await page.close();
  });

  it("counts a script aborted with no navigation, and still after a later one", async () => {
    const page = await context.newPage();
    await page.route("**/ok.js", (route) => route.abort("aborted"));
    const seen = watchProblems(page);
    await openFetching(page, "/ok.js");
    await expect.poll(() => seen.failedRequests).toEqual([`${base}/ok.js: net::ERR_ABORTED`]);
    await page.goto(`${base}/plain`);
    expect(seen.failedRequests).toEqual([`${base}/ok.js: net::ERR_ABORTED`]);
    await page.close();
  });

  it("counts the new page's own script aborted after the navigation", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openFetching(page, "/held.js");
    await page.route("**/ok.js", (route) => route.abort("aborted"));
    await openFetching(page, "/ok.js");
    await expect.poll(() => seen.failedRequests).toEqual([`${base}/ok.js: net::ERR_ABORTED`]);
    await page.close();
  });
});

/** Just enough of a Playwright page and its requests to emit events in an order chosen by the test. */
function scriptedPage() {
  const page = new EventEmitter() as EventEmitter & { mainFrame(): object; url(): string };
  const mainFrame = {};
  page.mainFrame = () => mainFrame;
  page.url = () => "http://127.0.0.1/account/";
  const request = (url: string, navigation = false, errorText = "net::ERR_ABORTED") => ({
    url: () => url,
    isNavigationRequest: () => navigation,
    frame: () => mainFrame,
    failure: () => ({ errorText }),
  });
  return { page, mainFrame, request, seen: watchProblems(page as unknown as Page) };
}

describe("watchProblems with the events in a forced order", () => {
  it("does not count a cancellation reported before framenavigated for the navigation that caused it", () => {
    const { page, mainFrame, request, seen } = scriptedPage();
    const chunk = request("http://127.0.0.1/_assets/device-name-x.js");
    page.emit("request", chunk);
    page.emit("request", request("http://127.0.0.1/account/", true));
    page.emit("requestfailed", chunk);
    page.emit("framenavigated", mainFrame);
    expect(seen.failedRequests).toEqual([]);
  });

  it("counts an abort with no navigation, and any other failure", () => {
    const { page, request, seen } = scriptedPage();
    const aborted = request("http://127.0.0.1/_assets/a.js");
    const refused = request("http://127.0.0.1/_assets/b.js", false, "net::ERR_CONNECTION_REFUSED");
    page.emit("request", aborted);
    page.emit("request", refused);
    page.emit("requestfailed", aborted);
    page.emit("request", request("http://127.0.0.1/next/", true));
    page.emit("requestfailed", refused);
    expect(seen.failedRequests).toEqual([
      "http://127.0.0.1/_assets/a.js: net::ERR_ABORTED",
      "http://127.0.0.1/_assets/b.js: net::ERR_CONNECTION_REFUSED",
    ]);
  });
});
