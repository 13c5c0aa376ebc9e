/**
 * `POST /donations/{id}/paypal/order | subscription | capture` (docs/payments-api.md, "PayPal").
 * One order or subscription per donation whatever the key (PayPal-Request-Id is the donation id);
 * a capture happens once, and every capture call after it gets that first answer, marked replayed,
 * without asking PayPal again; two at once (the donor's two tabs) ask PayPal once, the second
 * waiting for the first's answer (paypal/capture-lease.ts). The records are the donation's columns, so a restart keeps them.
 */
import * as clock from "../../core/clock.js";
import type { Hono } from "hono";
import { PAYPAL_MESSAGES } from "../../payments/paypal.js";
import { stateBody } from "../donations/rows.js";
import type { ApiDeps } from "../deps.js";
import { errorReply, errors, type Reply } from "../errors.js";
import { send } from "../reply.js";
import { readKeyedJson } from "./request-checks.js";
import type { DonationRow } from "../db/schema.js";
import { giveBackCaptureLease, takeCaptureLease } from "../paypal/capture-lease.js";

export function paypalRoutes(app: Hono, deps: ApiDeps): void {
  app.post("/donations/:id/paypal/:action{order|subscription|capture}", async (c) => {
    const read = await readKeyedJson(c, { emptyIsObject: true });
    if (!read.ok) return send(c, read.reply);
    if (!read.body || typeof read.body !== "object" || Array.isArray(read.body))
      return send(c, errors.invalidJson("The request body must be a JSON object."));
    return send(
      c,
      await paypalCall(deps, c.req.param("id"), c.req.param("action"), read.body as Record<string, unknown>),
    );
  });
  app.all("/donations/:id/paypal/:action{order|subscription|capture}", (c) => send(c, errors.method("POST")));
}

async function paypalCall(
  deps: ApiDeps,
  donationId: string,
  action: string,
  body: Record<string, unknown>,
): Promise<Reply & { replayed?: boolean }> {
  const row = await deps.db.selectFrom("donations").selectAll().where("id", "=", donationId).executeTakeFirst();
  if (!row) return errors.notFound();
  if (row.payment_method !== "paypal") return errorReply(422, "paypal_not_allowed", PAYPAL_MESSAGES.paypal_not_allowed);
  const paypal = deps.paypal;
  if (!paypal) return errors.unavailable();
  const once = row.frequency === "once";
  if (action === "order" || action === "subscription") {
    if ((action === "order") !== once)
      return errorReply(
        422,
        "paypal_not_allowed",
        once
          ? "A one-off gift is a PayPal order: POST /donations/{id}/paypal/order."
          : "A monthly gift is a PayPal subscription: POST /donations/{id}/paypal/subscription.",
      );
    let id = row.paypal_id;
    const replayed = id !== null;
    if (!id) {
      const last = row.schedule.at(-1)?.amountCents ?? row.total_cents;
      id = once
        ? await paypal.createOrder(row.total_cents, row.id)
        : await paypal.createSubscription(
            { cycleCents: row.total_cents, lastCents: last, count: row.open_ended ? null : row.schedule.length },
            row.id,
          );
      await deps.db
        .updateTable("donations")
        .set({ paypal_id: id, updated_at: new Date() })
        .where("id", "=", row.id)
        .where("paypal_id", "is", null)
        .execute();
    }
    return { status: 201, body: once ? { orderId: id } : { subscriptionId: id }, replayed };
  }
  if (row.paypal_capture_response) return { status: 200, raw: row.paypal_capture_response, replayed: true };
  const given = once ? body.orderId : body.subscriptionId;
  if (typeof given !== "string" || given === "")
    return errorReply(
      400,
      "validation_failed",
      once ? "Send the orderId PayPal approved." : "Send the subscriptionId PayPal approved.",
      { field: once ? "orderId" : "subscriptionId" },
    );
  if (!row.paypal_id) return errorReply(422, "paypal_not_approved", PAYPAL_MESSAGES.paypal_not_approved);
  if (given !== row.paypal_id) return errorReply(409, "paypal_mismatch", PAYPAL_MESSAGES.paypal_mismatch);
  // One capture call at a time (capture-lease.ts): the donor's other tab waits for this one's answer.
  const now = () => clock.now();
  const deadline = Date.now() + WAIT_FOR_OTHER_CAPTURE_MS;
  while (!(await takeCaptureLease(deps.db, row.id, now()))) {
    const answered = await storedCapture(deps, row.id);
    if (answered) return { status: 200, raw: answered, replayed: true };
    if (Date.now() > deadline)
      return errorReply(
        409,
        "paypal_capturing",
        "PayPal is still taking this payment in another window. Wait a minute, then reload this page: it will say whether the gift is paid.",
      );
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    // The lease holder before this one may have finished between our read and our claim.
    const answered = await storedCapture(deps, row.id);
    if (answered) return { status: 200, raw: answered, replayed: true };
    return await capture(deps, row, given);
  } finally {
    await giveBackCaptureLease(deps.db, row.id);
  }
}

/** How long a second capture request waits for the first's answer (below API Gateway's 29 s). */
const WAIT_FOR_OTHER_CAPTURE_MS = 20_000;

async function storedCapture(deps: ApiDeps, donationId: string): Promise<string | null> {
  const row = await deps.db
    .selectFrom("donations")
    .select("paypal_capture_response")
    .where("id", "=", donationId)
    .executeTakeFirst();
  return row?.paypal_capture_response ?? null;
}

/** The capture itself, with the lease held: PayPal asked once, its answer stored for every later call. */
async function capture(deps: ApiDeps, row: DonationRow, given: string): Promise<Reply & { replayed?: boolean }> {
  const paypal = deps.paypal!;
  const outcome = await paypal.capture(given);
  if (outcome === "declined") return errorReply(402, "paypal_declined", PAYPAL_MESSAGES.paypal_declined);
  // "already_captured" (a retry whose first answer was lost): this donation's order, paid once, so
  // answered as a capture, never "belongs to another gift".
  if (outcome === "unknown") return errorReply(409, "paypal_mismatch", PAYPAL_MESSAGES.paypal_mismatch);
  // With PayPal's SDK (deps.paypalApi), PayPal's signed webhook (POST /paypal/webhook) is what marks
  // the gift paid: the capture's answer says "processing" until it comes. The local provider has
  // no webhooks, so its capture answer stands in.
  const status = deps.paypalApi ? ("processing" as const) : ("succeeded" as const);
  const paid = { ...row, status };
  const response = JSON.stringify(stateBody(paid));
  await deps.db
    .updateTable("donations")
    .set({ expires_at: null, paypal_capture_response: response, updated_at: new Date() })
    .where("id", "=", row.id)
    .execute();
  // Never over a status the webhook already wrote (it may come before this answer).
  const changed = await deps.db
    .updateTable("donations")
    .set({ status })
    .where("id", "=", row.id)
    .where("status", "not in", ["succeeded", "refunded", "disputed"])
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) > 0) await deps.onStatusChanged?.(row.id, status);
  return { status: 200, raw: response };
}
