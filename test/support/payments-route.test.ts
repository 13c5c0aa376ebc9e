/**
 * The detour from the built payments address to a file's own service (payments-route.ts) must
 * behave as the browser's own connection would. Here the service closes a kept-alive connection
 * just as the next request arrives on it (what Node's server does to a connection idle for about
 * 6 s, a race the donation tests met after their 5 s timeout test): the page still gets its answer,
 * as a browser retries such a request on a new connection, and the service does the work once.
 */
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { isolatedContext, launchBrowser } from "./browser.js";
import { BUILT_PAYMENTS_URL, routePaymentsTo } from "./payments-route.js";

let browser: Browser;
let server: Server;
let serviceUrl: string;
/** Requests the service did the work for, by body. */
const done: string[] = [];

beforeAll(async () => {
  const answered = new WeakSet<Socket>();
  server = createServer((req, res) => {
    // A connection that has carried a request is closed when the next one comes on it, unanswered.
    if (answered.has(req.socket)) return req.socket.destroy();
    answered.add(req.socket);
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      done.push(body);
      res.writeHead(201, { "access-control-allow-origin": "*", "content-type": "text/plain" }).end(`made ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  serviceUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

it("a request the service's closing connection drops is sent again on a new one, and made once", async () => {
  const context = await isolatedContext(browser);
  await routePaymentsTo(context, serviceUrl);
  const page = await context.newPage();
  const give = (gift: string) =>
    page.evaluate(
      ([url, body]) =>
        fetch(`${url}/donations`, { method: "POST", body }).then(
          async (r) => `${r.status} ${await r.text()}`,
          (error: Error) => `failed: ${error.message}`,
        ),
      [BUILT_PAYMENTS_URL, gift] as const,
    );
  expect(await give("first")).toBe("201 made first");
  // The detour reuses its connection for the second gift; the service closes it unanswered.
  expect(await give("second")).toBe("201 made second");
  expect(done).toEqual(["first", "second"]);
  await context.close();
});
