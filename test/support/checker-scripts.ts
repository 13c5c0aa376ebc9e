/**
 * axe-core's and HTML_CodeSniffer's scripts served from a loopback address of their own, with a
 * long cache lifetime, for a test that runs them on many pages: a page that loads them by address
 * gets them from Chromium's cache, compiled code and all (V8's code cache), where the same 1 MB put
 * inline into each page is parsed and compiled again on every page (about 45% of axe's time per
 * page, measured on the sample). The pages still need `bypassCSP` (their CSP allows no other origin).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { axeSource } from "./axe.js";
import { htmlcsSource } from "./htmlcs.js";

export interface CheckerScripts {
  axeUrl: string;
  htmlcsUrl: string;
  stop(): Promise<void>;
}

export async function serveCheckerScripts(): Promise<CheckerScripts> {
  const files: Record<string, string> = { "/axe.min.js": await axeSource(), "/HTMLCS.js": await htmlcsSource() };
  const server = createServer((req, res) => {
    const body = files[req.url ?? ""];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "max-age=86400, immutable",
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    axeUrl: `${base}/axe.min.js`,
    htmlcsUrl: `${base}/HTMLCS.js`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
