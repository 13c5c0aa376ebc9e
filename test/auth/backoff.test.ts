/**
 * The RevokeToken retry (src/auth/backoff.ts): 100 ms doubling, up to 100 ms jitter, 5000 ms of
 * waiting in all. Its waits run on vitest's fake clock and its jitter on a stubbed Math.random.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isRetryable, retryWithBackoff } from "../../src/auth/backoff.js";

const network = () => Object.assign(new Error("A network error has occurred."), { name: "NetworkError" });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Runs the retry to its end on the fake clock; `at` holds the clock's time at each try. */
async function retried<T>(call: () => Promise<T>, dice: number) {
  vi.spyOn(Math, "random").mockReturnValue(dice);
  const at: number[] = [];
  const start = Date.now();
  const out = retryWithBackoff(() => {
    at.push(Date.now() - start);
    return call();
  });
  await vi.runAllTimersAsync();
  return { out: await out, at };
}

describe("retryWithBackoff", () => {
  it("waits 100 ms doubling plus jitter, and stops before 5000 ms of waiting", async () => {
    const { out, at } = await retried(async () => {
      throw network();
    }, 0.5);
    // 100+50, 200+50, 400+50, 800+50, 1600+50 = 3350 ms; the next (3200+50) would pass 5000.
    expect(out).toMatchObject({ ok: false, waits: [150, 250, 450, 850, 1650] });
    expect(at).toEqual([0, 150, 400, 850, 1700, 3350]);
  });

  it("keeps the jitter within 100 ms", async () => {
    const { out } = await retried(async () => {
      throw network();
    }, 0.999);
    expect(out.waits).toEqual([200, 300, 500, 900, 1700]);
  });

  it("answers as soon as a try succeeds", async () => {
    let calls = 0;
    const { out, at } = await retried(async () => {
      if (++calls < 3) throw Object.assign(new Error("Rate exceeded"), { name: "TooManyRequestsException" });
      return "revoked";
    }, 0);
    expect(out).toEqual({ ok: true, value: "revoked", waits: [100, 200] });
    expect(at).toEqual([0, 100, 300]);
  });

  it("does not repeat a refusal", async () => {
    const { out, at } = await retried(async () => {
      throw Object.assign(new Error("Invalid token"), { name: "UnauthorizedException" });
    }, 0.5);
    expect(out.ok).toBe(false);
    expect(at).toEqual([0]);
    expect(isRetryable(new TypeError("Failed to fetch"))).toBe(true);
    expect(isRetryable(Object.assign(new Error("x"), { name: "InternalErrorException" }))).toBe(true);
  });
});
