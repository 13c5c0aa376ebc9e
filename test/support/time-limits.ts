/**
 * Time limits in tests catch hangs; they are not speed checks. A loaded machine (CI's, or this
 * one with several developers) runs the same test several times slower, so every limit a test sets
 * goes through `hangLimit`, scaled by NZF_TEST_TIME_SCALE: 3 by default (a suite measured at load
 * 25-30 on 2 cores ran its CLI tests about three times slower than at rest, and then some), 1 to
 * find a hang sooner on a quiet machine, more on a machine busier still.
 */
const DEFAULT_SCALE = 3;

function scaleFromEnvironment(): number {
  const raw = process.env.NZF_TEST_TIME_SCALE;
  if (raw === undefined || raw === "") return DEFAULT_SCALE;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 1 || scale > 50)
    throw new Error(
      `[CONFIG_INVALID] NZF_TEST_TIME_SCALE is "${raw}"; it must be a number from 1 to 50 (the factor every test time limit is multiplied by).`,
    );
  return scale;
}

export const TIME_SCALE = scaleFromEnvironment();

/** A test's time limit, scaled for the machine's load: `it(..., hangLimit(60_000))`. */
export const hangLimit = (ms: number): number => Math.round(ms * TIME_SCALE);
