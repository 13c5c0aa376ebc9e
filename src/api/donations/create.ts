/**
 * `POST /donations` after the request checks: idempotency, validation, the plan, the row, then
 * Stripe. The donation row and the claim on the key are written together before Stripe is asked,
 * so a retry after a crash (same key, same body) continues with the same donation id, and the
 * Stripe idempotency keys made from it return what Stripe already made: never a second intent.
 */
import * as clock from "../../core/clock.js";
import { sql } from "kysely";
import type Stripe from "stripe";
import { canonicalJson } from "../../payments/canonical-json.js";
import { stripeBillingDate } from "../../payments/billing-dates.js";
import type { DonationRequest, ScheduledCharge } from "../../payments/types.js";
import { validateDonationRequest } from "../../payments/validate.js";
import type { DonationRow } from "../db/schema.js";
import type { ApiDeps } from "../deps.js";
import { errors, type Reply } from "../errors.js";
import { bodyHash, claimKey, findKey, PENDING, storeResponse } from "../idempotency-store.js";
import { openIntent } from "../stripe/intents.js";
import { newDonationId, newReference } from "./ids.js";
import { planRequest } from "./plan.js";
import { createdBody } from "./rows.js";

export const CREATE_SCOPE = "POST /donations";
/** Never-paid donations are not history: they expire (intents cancelled) after this. */
export const PENDING_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface CreateInput {
  key: string;
  body: unknown;
  authorization?: string;
}

export async function createDonation(deps: ApiDeps, input: CreateInput): Promise<Reply & { replayed?: boolean }> {
  const now = clock.now();
  const canonical = canonicalJson(input.body);
  const hash = bodyHash(canonical);
  const stored = await findKey(deps.db, CREATE_SCOPE, input.key, now);
  if (stored && stored.bodyHash !== hash) return errors.keyReused();
  if (stored && stored.status !== PENDING) return { status: stored.status, raw: stored.response, replayed: true };

  const validation = validateDonationRequest(input.body, deps.rulesForRequest?.(input.body) ?? deps.rulesFor);
  if (!validation.ok) return errors.validation(validation.errors);
  const request = validation.request;

  let row: DonationRow | undefined;
  if (stored?.donationId) {
    // Work begun and not finished (a crash, Stripe down): carry on with the same donation.
    row = await deps.db.selectFrom("donations").selectAll().where("id", "=", stored.donationId).executeTakeFirst();
  }
  if (!row) {
    const planned = planRequest(request, now, deps.seasons);
    if (!planned.ok) return planned.reply;
    const userSub = deps.identifyDonor ? await deps.identifyDonor(input.authorization) : null;
    const id = newDonationId();
    const claimed = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimKey(trx, { scope: CREATE_SCOPE, key: input.key, bodyHash: hash, donationId: id }, now)))
        return false;
      await trx
        .insertInto("donations")
        .values({
          ...planned.columns,
          id,
          reference: newReference(),
          idempotency_key: input.key,
          client_secret: "",
          status: "requires_payment_method",
          user_sub: userSub,
          created_at: now,
          updated_at: now,
          expires_at: new Date(now.getTime() + PENDING_LIFETIME_MS),
        })
        .execute();
      return true;
    });
    // Another request with this key got there first: answer as its retry would.
    if (!claimed) return createDonation(deps, input);
    row = await deps.db.selectFrom("donations").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  if (row.payment_method === "card" && !row.client_secret) {
    if (!deps.stripe) {
      deps.logger?.error("api", "card gift refused: no STRIPE_SECRET_KEY is configured");
      return errors.unavailable();
    }
    row = await openCardIntent(deps, deps.stripe, row);
  }
  const body = JSON.stringify(createdBody(row));
  await storeResponse(deps.db, CREATE_SCOPE, input.key, 201, body);
  await deps.onDonationCreated?.({
    authorization: input.authorization,
    userSub: row.user_sub,
    created: createdBody(row),
    request: request as DonationRequest,
  });
  return { status: 201, raw: body };
}

/**
 * A customer per donor e-mail (the latest one Stripe made for it), then the intent. A stored
 * customer Stripe no longer knows (deleted in the Dashboard, or made under other keys: test mode's
 * customers do not exist in live mode) is replaced by a new one rather than failing every later gift
 * of that donor.
 */
/** The schedule's dates from Stripe's billing anchor: the k-th charge on Stripe's k-th billing day. */
function stripeSchedule(schedule: ScheduledCharge[], anchor: number): ScheduledCharge[] {
  return schedule.map((c, k) => ({ ...c, date: stripeBillingDate(anchor, k) }));
}

export async function openCardIntent(deps: ApiDeps, stripe: Stripe, row: DonationRow): Promise<DonationRow> {
  const email = row.donor_email.toLowerCase();
  const known = await deps.db
    .selectFrom("donations")
    .select("stripe_customer_id")
    .where(sql`lower(donor_email)`, "=", email)
    .where("stripe_customer_id", "is not", null)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  const newCustomer = async () =>
    (
      await stripe.customers.create(
        {
          email,
          name: `${row.donor_first_name} ${row.donor_last_name}`,
          phone: row.donor_phone,
          metadata: { first_donation_id: row.id },
        },
        { idempotencyKey: `${row.id}/customer` },
      )
    ).id;
  let customerId = known?.stripe_customer_id ?? (await newCustomer());
  let opened: Awaited<ReturnType<typeof openIntent>>;
  try {
    opened = await openIntent(stripe, row, customerId);
  } catch (error) {
    if (!known || !isMissingCustomer(error)) throw error;
    customerId = await newCustomer();
    opened = await openIntent(stripe, row, customerId);
  }
  return deps.db
    .updateTable("donations")
    .set({
      stripe_customer_id: customerId,
      stripe_intent_id: opened.intentId,
      stripe_subscription_id: opened.subscriptionId ?? null,
      stripe_billing_anchor: opened.billingAnchor ? new Date(opened.billingAnchor * 1000) : null,
      // A monthly gift's dates as Stripe will bill them, from its subscription's anchor (the page
      // shows these once the gift is made): a gift made on a Sydney morning is anchored on the day
      // before in UTC, and on the 29th to the 1st Stripe's day can differ from the calendar's.
      ...(row.frequency === "monthly" && opened.billingAnchor
        ? { schedule: JSON.stringify(stripeSchedule(row.schedule, opened.billingAnchor)) }
        : {}),
      client_secret: opened.clientSecret,
      updated_at: clock.now(),
    })
    .where("id", "=", row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Stripe's 404 for a customer it does not have (`No such customer: 'cus_…'`, param `customer`). */
function isMissingCustomer(error: unknown): boolean {
  const { code, param } = error as { code?: string; param?: string };
  return code === "resource_missing" && param === "customer";
}
