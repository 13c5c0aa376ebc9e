/**
 * Cover-the-fees: the donor adds the card fee so the foundation receives the whole gift.
 *
 * Stripe's fee for domestic Australian cards is 1.7% + 30c of the amount charged. Charging
 * `amount + fee` is not enough, because the fee is also taken from the fee. So the total is grossed up:
 *
 *     total = ceil((amount + 30) / (1 − 0.017))   (cents)
 *
 * Rounding up keeps the foundation whole: with T ≥ (a + 30) / 0.983, Stripe's fee 0.017·T + 30 is
 * at most T − a, and since T − a is a whole number of cents, Stripe's rounding of its fee to the
 * cent cannot exceed it either. Integer arithmetic only (rates in basis points).
 */

export interface FeeRate {
  /** Percentage part in basis points: 170 = 1.7%. */
  percentBasisPoints: number;
  /** Fixed part per charge, in cents. */
  fixedCents: number;
}

/** Stripe, domestic cards, Australia (standard pricing). */
export const STRIPE_AU_DOMESTIC: FeeRate = { percentBasisPoints: 170, fixedCents: 30 };

export interface FeeBreakdown {
  amountCents: number;
  feeCents: number;
  totalCents: number;
}

/** The charge for one gift of `amountCents`, with or without the fee covered. */
export function chargeFor(amountCents: number, coverFees: boolean, rate: FeeRate = STRIPE_AU_DOMESTIC): FeeBreakdown {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new RangeError(`Amount must be a whole, non-negative number of cents; got ${amountCents}.`);
  }
  if (!coverFees) return { amountCents, feeCents: 0, totalCents: amountCents };
  const numerator = (amountCents + rate.fixedCents) * 10_000;
  const denominator = 10_000 - rate.percentBasisPoints;
  const totalCents = Math.ceil(numerator / denominator);
  // Math.ceil on a float quotient is exact here: both operands are integers far below 2^53, and
  // an exact integer quotient is represented exactly, so no spurious extra cent appears.
  return { amountCents, feeCents: totalCents - amountCents, totalCents };
}

/** What Stripe keeps from a charge of `totalCents` (its fee rounded to the nearest cent). */
export function processorFee(totalCents: number, rate: FeeRate = STRIPE_AU_DOMESTIC): number {
  return Math.round((totalCents * rate.percentBasisPoints) / 10_000) + rate.fixedCents;
}
