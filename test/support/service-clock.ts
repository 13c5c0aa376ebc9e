/**
 * The services' clock (src/core/clock.ts) as tests move it: months pass while a donor stays signed
 * in, a plan's dates come due, a mail's retry falls due. Every test file runs with the clock module
 * replaced by this one (test/support/service-clock-setup.ts, vitest.config.ts); a file that moves the
 * date gives it the test's clock (the account and mailing harnesses do that with their `now` and
 * `start` options).
 *
 * Only the services' "now" moves. `Date` itself is not faked: aws-jwt-verify checks a token's `exp`
 * by Date.now, and cognito-local, in a process of its own, signs tokens by the real clock; Stripe's
 * stand-in keeps its own test clock (setNow). Until a clock is set, and after `restoreRealClock`, this
 * reads the system's, as production does.
 */

let reading: (() => Date) | undefined;

/** What the mocked src/core/clock.ts answers. */
export function now(): Date {
  return reading ? reading() : new Date();
}

/**
 * From now on the services read `clock`. Fails when src/core/clock.ts is not replaced by this
 * module (a vitest setup without the setup file): the service would keep the real date, and the
 * test would pass or fail by the day it runs on.
 */
export async function setServiceClock(clock: () => Date): Promise<void> {
  const served = await import("../../src/core/clock.js");
  if (served.now !== now)
    throw new Error(
      "the services' clock is not mocked: vitest.config.ts must list test/support/service-clock-setup.ts in setupFiles",
    );
  reading = clock;
}

/** The system's clock again (a harness's stop). */
export function restoreRealClock(): void {
  reading = undefined;
}
