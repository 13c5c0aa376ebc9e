/**
 * Server-side request forgery through image URLs (issue 35), through the compiled CLI against the
 * local Prismic stub: a listener the test opens on the loopback address stands for what the build
 * host can reach (a metadata service, a database's HTTP port). Every way of naming it, directly, by
 * a name, in IPv6, IPv4-mapped, as a decimal number, or through a redirect from an allowed host,
 * is refused with a coded warning naming the document and field, and the listener hears nothing.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTemporary } from "../cli/cli-process.js";
import { ABOUT_ID, buildFetched, imageBlock, stopStubs, withAbout } from "./attack-content.js";

let listener: Server;
let listenerV6: Server | undefined;
let redirector: Server;
const heard: string[] = [];
const redirected: string[] = [];
let port: number;
let redirectorHost: string;

const listen = (server: Server, host: string, at = 0) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at, host, () => resolve());
  });

beforeAll(async () => {
  listener = createServer((req, res) => {
    heard.push(`${req.socket.localAddress} ${req.url}`);
    res.writeHead(200, { "content-type": "image/png" }).end();
  });
  await listen(listener, "127.0.0.1");
  port = (listener.address() as AddressInfo).port;
  // The same port on ::1 when the machine has IPv6 loopback, so an IPv6 request would be heard too.
  listenerV6 = createServer((req, res) => {
    heard.push(`${req.socket.localAddress} ${req.url}`);
    res.writeHead(200).end();
  });
  await listen(listenerV6, "::1", port).catch(() => (listenerV6 = undefined));
  // An image host the operator allowed (listed by its address), redirecting to the listener.
  redirector = createServer((req, res) => {
    redirected.push(req.url!);
    const to =
      req.url === "/by-name.jpg"
        ? `http://localhost:${port}/redirected.jpg`
        : `http://127.0.0.1:${port}/redirected.jpg`;
    res.writeHead(302, { location: to }).end();
  });
  await listen(redirector, "127.0.0.1");
  redirectorHost = `127.0.0.1:${(redirector.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const server of [listener, listenerV6, redirector]) {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
  }
  await stopStubs();
  await removeTemporary();
});

describe("image URLs that point inside the build host's network, through the compiled CLI", () => {
  it("no request reaches a loopback listener, and each refusal names the document and field", async () => {
    const attacks: [string, RegExp][] = [
      [`http://127.0.0.1:${port}/plain.jpg`, /its host 127\.0\.0\.1:\d+ is not a public address \(loopback\)/],
      [
        `http://localhost:${port}/by-name.jpg`,
        /its host localhost resolves to (127\.0\.0\.1|::1), not a public address \(loopback\)/,
      ],
      [`http://[::1]:${port}/v6.jpg`, /its host \[::1\]:\d+ is not a public address \(loopback\)/],
      [
        `http://[::ffff:127.0.0.1]:${port}/mapped.jpg`,
        /its host \[::ffff:7f00:1\]:\d+ is not a public address \(loopback\)/,
      ],
      [`http://2130706433:${port}/decimal.jpg`, /its host 127\.0\.0\.1:\d+ is not a public address \(loopback\)/],
      [`http://0.0.0.0:${port}/any.jpg`, /its host 0\.0\.0\.0:\d+ is not a public address \(unspecified\)/],
      [
        "http://169.254.169.254/latest/meta-data/iam.jpg",
        /its host 169\.254\.169\.254 is not a public address \(linkLocal\)/,
      ],
      [
        "http://[fd00:ec2::254]/latest/meta-data.jpg",
        /its host \[fd00:ec2::254\] is not a public address \(uniqueLocal\)/,
      ],
      ["http://10.0.0.1/internal.jpg", /its host 10\.0\.0\.1 is not a public address \(private\)/],
      [`http://${redirectorHost}/to-listener.jpg`, /it redirects to another host \(http:\/\/127\.0\.0\.1:\d+\)/],
      ["https://images.prismic.io/another-repository/x.jpg", /not on the repository's path of Prismic's image CDN/],
      ["https://example.org/not-listed.jpg", /its host example\.org is not images\.prismic\.io\/nzf-test or one of/],
      ["file:///etc/passwd", /it is a file: URL, not http\(s\)/],
    ];
    const documents = await withAbout((data) => ({
      ...data,
      body: [...(data.body as unknown[]), ...attacks.map(([url]) => imageBlock(url))],
    }));
    const first = ((await withAbout((d) => d)).find((d) => d.id === ABOUT_ID)!.data.body as unknown[]).length;

    // localhost is listed by name: a name is checked on what it resolves to, so it is still refused.
    const run = await buildFetched(documents, { NZF_IMAGE_HOSTS: `${redirectorHost},localhost:${port}` });

    expect(heard, "requests heard by the loopback listener").toEqual([]);
    expect(redirected, "the allowed host was asked, once").toEqual(["/to-listener.jpg"]);
    expect(run.code, run.output).toBe(0);
    attacks.forEach(([url, why], i) => {
      const line = run.output
        .split("\n")
        .find((l) => l.includes("[IMAGE_REFUSED]") && l.includes(`field body[${first + i}]`));
      expect(line, `a warning for ${url}`).toBeDefined();
      expect(line).toMatch(why);
      expect(line).toContain(`document ${ABOUT_ID}`);
    });
    const about = await readFile(join(run.dist, "about", "index.html"), "utf8");
    expect(about).not.toContain(`:${port}/`);
    expect(about).not.toContain("169.254.169.254");
  }, 150_000);
});
