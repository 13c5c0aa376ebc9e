/** The RevokeToken retry (src/auth/backoff.ts): 100 ms doubling, up to 100 ms jitter, 5000 ms of waiting in all. */
import { describe, expect, it } from "vitest";
import { isRetryable, retryWithBackoff } from "../../src/auth/backoff.js";

const network = () => Object.assign(new Error("A network error has occurred."), { name: "NetworkError" });

describe("retryWithBackoff", () => {
  it("waits 100 ms doubling plus jitter, and stops before 5000 ms of waiting", async () => {
    const slept: number[] = [];
    let calls = 0;
    const out = await retryWithBackoff(
      async () => {
        calls++;
        throw network();
      },
      { sleep: async (ms) => void slept.push(ms), random: () => 0.5 },
    );
    // 100+50, 200+50, 400+50, 800+50, 1600+50 = 3350 ms; the next (3200+50) would pass 5000.
    expect(slept).toEqual([150, 250, 450, 850, 1650]);
    expect(out).toMatchObject({ ok: false, waits: slept });
    expect(calls).toBe(6);
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5000);
  });

  it("keeps the jitter within 100 ms", async () => {
    const slept: number[] = [];
    await retryWithBackoff(
      async () => {
        throw network();
      },
      { sleep: async (ms) => void slept.push(ms), random: () => 0.999 },
    );
    expect(slept).toEqual([200, 300, 500, 900, 1700]);
  });

  it("answers as soon as a try succeeds", async () => {
    let calls = 0;
    const out = await retryWithBackoff(
      async () => {
        if (++calls < 3) throw Object.assign(new Error("Rate exceeded"), { name: "TooManyRequestsException" });
        return "revoked";
      },
      { sleep: async () => {}, random: () => 0 },
    );
    expect(out).toEqual({ ok: true, value: "revoked", waits: [100, 200] });
  });

  it("does not repeat a refusal", async () => {
    let calls = 0;
    const out = await retryWithBackoff(
      async () => {
        calls++;
        throw Object.assign(new Error("Invalid token"), { name: "UnauthorizedException" });
      },
      { sleep: async () => {} },
    );
    expect(out.ok).toBe(false);
    expect(calls).toBe(1);
    expect(isRetryable(new TypeError("Failed to fetch"))).toBe(true);
    expect(isRetryable(Object.assign(new Error("x"), { name: "InternalErrorException" }))).toBe(true);
  });
});
