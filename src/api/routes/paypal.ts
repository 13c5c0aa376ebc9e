/**
 * `POST /donations/{id}/paypal/order | subscription | capture` (docs/payments-api.md, "PayPal").
 * One order or subscription per donation whatever the key (PayPal-Request-Id is the donation id);
 * a capture happens once, and every capture call after it gets that first answer, marked replayed,
 * without asking PayPal again. The records are the donation's columns, so a restart keeps them.
 */
import type { Hono } from "hono";
import { PAYPAL_MESSAGES } from "../../payments/paypal.js";
import { stateBody } from "../donations/rows.js";
import type { ApiDeps } from "../deps.js";
import { errorReply, errors, type Reply } from "../errors.js";
import { send } from "../reply.js";
import { readKeyedJson } from "./request-checks.js";

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
  const outcome = await paypal.capture(given);
  if (outcome === "declined") return errorReply(402, "paypal_declined", PAYPAL_MESSAGES.paypal_declined);
  // Captured already (the donor's other tab, or a retry after a lost answer): this donation's order,
  // paid once; this tab is told what the first was, never "belongs to another gift".
  if (outcome === "unknown") return errorReply(409, "paypal_mismatch", PAYPAL_MESSAGES.paypal_mismatch);
  const again = outcome === "already_captured" ? await captureAnswer(deps, row.id) : undefined;
  if (again) return { status: 200, raw: again, replayed: true };
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

/** The capture answer another request stored, waited for a moment (the other tab may be writing it). */
async function captureAnswer(deps: ApiDeps, donationId: string): Promise<string | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const row = await deps.db
      .selectFrom("donations")
      .select("paypal_capture_response")
      .where("id", "=", donationId)
      .executeTakeFirst();
    if (row?.paypal_capture_response) return row.paypal_capture_response;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}
