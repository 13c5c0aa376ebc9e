/**
 * The account harness on one test clock for the services and Stripe, as the Stripe plan tests
 * (test/api/stripe-*.test.ts) use it: months pass, Stripe bills what falls due on its test clock,
 * its signed webhooks reach the service, and the account reads the services' clock at the same
 * moment. And the gift most of them follow: card instalments given by a signed-in donor.
 */
import type { Account, Harness } from "./account-api-harness.js";
import { startAccountHarness } from "./account-api-harness.js";

export interface TestClock {
  /** What the services read now. */
  now(): Date;
  /** The services' clock only (Stripe's test clock stays where it is until it is moved). */
  set(moment: Date): void;
  /**
   * A day at the clock's hour (noon in Sydney): the services' clock and Stripe's test clock moved
   * there together, Stripe billing what fell due by then, its webhooks delivered.
   */
  moveTo(date: string): Promise<void>;
}

/**
 * The harness with the services' clock at `start`; `moveTo` days at `utcHour` ("02:00" by
 * default: noon in Sydney in winter, 1 pm in summer, the same day either way).
 */
export async function startHarnessOnClock(
  start: string,
  options: { utcHour?: string } = {},
): Promise<{ h: Harness; clock: TestClock }> {
  let moment = new Date(start);
  let h: Harness | undefined;
  const clock: TestClock = {
    now: () => moment,
    set(next) {
      moment = next;
    },
    async moveTo(date) {
      if (!h) throw new Error("moveTo before the harness started");
      moment = new Date(`${date}T${options.utcHour ?? "02:00"}:00Z`);
      await h.service.stripe.advanceTo(moment);
      await h.service.stripe.settled();
    },
  };
  h = await startAccountHarness({ now: clock.now });
  return { h, clock };
}

/**
 * Card instalments given by the signed-in donor and paid (the first payment by the Stripe
 * stand-in's signed webhook; Stripe's schedule bills the rest): $1,200 of zakat in 12 by default.
 * Returns the account's id of the plan (`gift_<donation>`).
 */
export async function giveInstalments(
  h: Harness,
  donor: Account,
  plan: { amountCents?: number; count?: number } = {},
): Promise<string> {
  const donationId = await h.donate(
    {
      fund: "zakat",
      amountCents: plan.amountCents ?? 120_000,
      frequency: "monthly-instalments",
      instalments: { count: plan.count ?? 12 },
    },
    "succeeded",
    donor.access,
  );
  return `gift_${donationId}`;
}
