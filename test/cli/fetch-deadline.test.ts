/**
 * A Prismic endpoint that accepts connections and never answers, through the compiled CLI in a new
 * process: `nzf-build fetch` and `nzf-build --fetch` give up within the fetch's deadline (15 s of
 * failed attempts, so within 20 s in all) with PRISMIC_UNAVAILABLE naming the endpoint, keep the
 * last good content, and build nothing. The deadline is asserted from what the CLI says it applied
 * and from the requests the endpoint held, not from the wall clock, which load stretches.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startHangingProxy, type HangingProxy } from "../support/hanging-proxy.js";
import { cli, projectRoot, removeTemporary } from "./cli-process.js";

let proxy: HangingProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});
afterAll(removeTemporary);

/** A loopback endpoint that takes every request and answers none. */
async function hangingEndpoint(): Promise<HangingProxy> {
  // The target is never contacted: every request is held.
  const held = await startHangingProxy("http://127.0.0.1:9");
  held.hang = () => true;
  return held;
}

const GAVE_UP = /gave up after (\d+(?:\.\d+)? s|\d+ ms) \(the limit is 15\.0 s\)/;

describe("a Prismic endpoint that accepts and never answers", () => {
  it.concurrent.each([
    ["nzf-build fetch", ["fetch"]],
    ["nzf-build --fetch", ["--fetch"]],
  ])(
    "%s fails with PRISMIC_UNAVAILABLE within the 15 s deadline, blaming the endpoint",
    async (_, args) => {
      const endpoint = await hangingEndpoint();
      const root = await projectRoot();
      const url = `${endpoint.endpoint}/api/v2`;
      try {
        const run = await cli([...args, "--root", root, "--repository", "nzf-test", "--endpoint", url], {}, 60_000);
        expect(run.code, run.output).toBe(1);
        expect(run.output).toMatch(
          /^\[PRISMIC_UNAVAILABLE\] The Prismic API did not answer http:\/\/127\.0\.0\.1:\d+\/api\/v2: /m,
        );
        // The subject is the endpoint, and the hint says it accepted the connection but did not answer.
        expect(run.output).toContain(`(${url})`);
        expect(run.output).toContain("Prismic accepted the connection but did not answer in time");
        expect(run.output).toContain("an answer begun within 5.0 s and complete within 20.0 s, each");
        const gaveUp = GAVE_UP.exec(run.output);
        expect(gaveUp, run.output).not.toBeNull();
        const seconds = gaveUp![1]!.endsWith("ms")
          ? Number.parseFloat(gaveUp![1]!) / 1000
          : Number.parseFloat(gaveUp![1]!);
        expect(seconds).toBeLessThanOrEqual(15.5);
        // Several attempts, each cut off at 5 s without an answer, all held by the endpoint.
        expect(endpoint.held.length).toBeGreaterThanOrEqual(3);
        expect(endpoint.held.every((r) => r.startsWith("GET /api/v2"))).toBe(true);
        expect(existsSync(join(root, "dist")), "nothing is built").toBe(false);
        expect(existsSync(join(root, "content-cache", "nzf-test", "snapshot.json"))).toBe(false);
      } finally {
        await endpoint.stop();
      }
    },
    90_000,
  );
});
