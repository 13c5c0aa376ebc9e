/**
 * The payments service's port can be bound before the service is ready (watch mode builds the site,
 * which needs its URL, first): a request that cannot wait for it gets the contract's 503
 * `unavailable` with Retry-After, readable by a site on this machine, and a start that fails closes
 * the port and says why.
 */
import { describe, expect, it } from "vitest";
import { listenApiServer } from "../../src/api/node-server.js";

async function listening(url: string): Promise<boolean> {
  return fetch(`${url}/nothing`).then(
    async (r) => (await r.body?.cancel(), true),
    () => false,
  );
}

describe("the payments service's port before the service is ready", { timeout: 60_000 }, () => {
  it("answers 503 unavailable with Retry-After when the service is not ready in time, readable by a loopback site", async () => {
    const bound = await listenApiServer({ port: 0, holdMs: 0 });
    try {
      const local = await fetch(`${bound.url}/donations`, { headers: { origin: "http://localhost:4321" } });
      expect(local.status).toBe(503);
      expect(local.headers.get("retry-after")).toBe("2");
      expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:4321");
      expect(((await local.json()) as { error: { code: string } }).error.code).toBe("unavailable");
      const other = await fetch(`${bound.url}/donations`, { headers: { origin: "https://attacker.example" } });
      expect(other.status).toBe(503);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      await other.body?.cancel();
    } finally {
      await bound.stop();
    }
    expect(await listening(bound.url)).toBe(false);
  });

  it("closes its port when the service cannot start, and says why", async () => {
    const bound = await listenApiServer({ port: 0, holdMs: 0 });
    await expect(bound.start({ dataDir: "memory://", env: { NZF_API_ALLOWED_ORIGINS: "*" } })).rejects.toMatchObject({
      code: "API_CONFIG_INVALID",
    });
    expect(await listening(bound.url)).toBe(false);
    await bound.stop();
  });
});
