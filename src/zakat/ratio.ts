/**
 * Exact rational arithmetic on bigint, for money. Every intermediate of the zakat calculation
 * (grams × purity × price, percentages, rates) is a Ratio, so nothing is rounded until the one
 * rounding at the end. Floats never touch an amount: 0.1 + 0.2 is not 0.3 in binary, and sums above
 * 2^53 cents lose whole cents.
 */

/** An exact fraction. Always normalised: denominator > 0, gcd(numerator, denominator) = 1. */
export interface Ratio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

export function ratio(numerator: bigint, denominator: bigint = 1n): Ratio {
  if (denominator === 0n) throw new RangeError("A ratio cannot have a zero denominator.");
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const g = gcd(numerator, denominator);
  return g > 1n ? { numerator: numerator / g, denominator: denominator / g } : { numerator, denominator };
}

export const ZERO: Ratio = ratio(0n);

export function add(a: Ratio, b: Ratio): Ratio {
  return ratio(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator);
}

export function sub(a: Ratio, b: Ratio): Ratio {
  return ratio(a.numerator * b.denominator - b.numerator * a.denominator, a.denominator * b.denominator);
}

export function mul(...factors: Ratio[]): Ratio {
  let numerator = 1n;
  let denominator = 1n;
  for (const f of factors) {
    numerator *= f.numerator;
    denominator *= f.denominator;
  }
  return ratio(numerator, denominator);
}

export function sum(values: readonly Ratio[]): Ratio {
  return values.reduce(add, ZERO);
}

/** -1, 0 or 1 as a is below, equal to or above b (denominators are positive, so cross-multiplying is safe). */
export function compare(a: Ratio, b: Ratio): -1 | 0 | 1 {
  const left = a.numerator * b.denominator;
  const right = b.numerator * a.denominator;
  return left < right ? -1 : left > right ? 1 : 0;
}

export function max(a: Ratio, b: Ratio): Ratio {
  return compare(a, b) >= 0 ? a : b;
}

/** Floor division that rounds toward -infinity for negatives too (bigint `/` truncates toward zero). */
function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/**
 * Rounds half up: to the nearest integer, and exactly-half goes up (toward +infinity), i.e.
 * floor(x + 1/2). 2.5 → 3, 2.4999… → 2, -1.5 → -1. Because it is floor(x + 1/2), rounding commutes
 * with adding whole numbers: round(x - n) = round(x) - n, so a rounded net always equals the rounded
 * assets minus whole-cent liabilities.
 */
export function roundHalfUp(x: Ratio): bigint {
  return floorDiv(2n * x.numerator + x.denominator, 2n * x.denominator);
}

/**
 * Parses a plain decimal ("12.5", "0.916", "30", "-1.5") into an exact Ratio. No grouping, no
 * exponent: callers clean user text first. Returns undefined for anything else.
 */
export function parseDecimal(text: string): Ratio | undefined {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole = "", fraction = ""] = match;
  if (whole === "" && fraction === "") return undefined;
  const digits = BigInt((whole || "0") + fraction);
  return ratio(sign === "-" ? -digits : digits, 10n ** BigInt(fraction.length));
}

/** A decimal string for a ratio when it terminates within maxDecimals places, else undefined. */
export function toDecimalString(x: Ratio, minDecimals = 0, maxDecimals = 20): string | undefined {
  for (let places = minDecimals; places <= maxDecimals; places++) {
    const scale = 10n ** BigInt(places);
    if ((x.numerator * scale) % x.denominator !== 0n) continue;
    const scaled = (x.numerator * scale) / x.denominator;
    const negative = scaled < 0n;
    const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, "0");
    const whole = digits.slice(0, digits.length - places);
    const fraction = digits.slice(digits.length - places);
    return `${negative ? "-" : ""}${whole}${places > 0 ? "." + fraction : ""}`;
  }
  return undefined;
}
