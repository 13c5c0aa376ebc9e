/**
 * Refunds of a PaymentIntent's charge, whole or in part: `refund.created` and `charge.refunded`
 * (the charge with `amount_refunded` and `refunded`). Card refunds succeed at once in test mode.
 */
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import type { Route } from "../server.js";
import { listOf } from "../store.js";
import { page } from "./customers.js";

export const refundRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/refunds",
    handler({ store, params: p }) {
      const piId = p.string("payment_intent", { max: 255 });
      const chId = p.string("charge", { max: 255 });
      const amount = p.int("amount", { min: 1 });
      const reason = p.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"] as const);
      const metadata = p.metadata("metadata") ?? {};
      p.string("instructions_email", { max: 512 });
      p.done();
      if (piId === undefined && chId === undefined)
        throw invalidRequest(
          "One of the following params should be provided for this request: payment_intent or charge.",
          undefined,
          "parameter_missing",
        );
      if (piId !== undefined && chId !== undefined)
        throw invalidRequest(
          "You may only specify one of these parameters: charge, payment_intent.",
          "charge",
          "parameters_exclusive",
        );
      let charge: any;
      if (piId !== undefined) {
        const pi = store.require(piId, "payment_intent", "payment_intent");
        charge = pi.status === "succeeded" && pi.latest_charge ? store.get(pi.latest_charge, "charge") : undefined;
        if (!charge)
          throw invalidRequest(
            `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
            "payment_intent",
            "charge_not_refundable",
          );
      } else {
        charge = store.require(chId!, "charge", "charge");
        if (charge.status !== "succeeded")
          throw invalidRequest(
            "This charge did not succeed and cannot be refunded.",
            "charge",
            "charge_not_refundable",
          );
      }
      if (charge.disputed)
        throw invalidRequest(
          `Charge ${charge.id} has been charged back; cannot issue a refund.`,
          undefined,
          "charge_disputed",
        );
      const left = charge.amount - charge.amount_refunded;
      if (left === 0)
        throw invalidRequest(`Charge ${charge.id} has already been refunded.`, undefined, "charge_already_refunded");
      const value = amount ?? left;
      if (value > left)
        throw invalidRequest(
          `Refund amount (${(value / 100).toFixed(2)} ${charge.currency}) is greater than unrefunded amount on charge (${(left / 100).toFixed(2)} ${charge.currency})`,
          "amount",
          "amount_too_large",
        );
      const refund = store.put({
        id: newId("re"),
        object: "refund",
        amount: value,
        balance_transaction: newId("txn"),
        charge: charge.id,
        created: store.now(),
        currency: charge.currency,
        customer: charge.customer,
        customer_account: null,
        destination_details: {
          card: {
            reference: newId("arn").slice(4, 20),
            reference_status: "available",
            reference_type: "acquirer_reference_number",
            type: "refund",
          },
          type: "card",
        },
        metadata,
        payment_intent: charge.payment_intent,
        payment_method: charge.payment_method,
        reason: reason ?? null,
        receipt_number: null,
        source_transfer_reversal: null,
        status: "succeeded",
        transfer_reversal: null,
      });
      const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
      charge.amount_refunded += value;
      charge.refunded = charge.amount_refunded === charge.amount;
      store.emit("refund.created", refund);
      store.emit("charge.refunded", charge, previous);
      return refund;
    },
  },
  {
    method: "GET",
    path: "/v1/refunds/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "refund", "refund");
    },
  },
  {
    method: "POST",
    path: "/v1/refunds/:id",
    handler({ store, id, params: p }) {
      const refund = store.require(id, "refund", "refund");
      const metadata = p.metadata("metadata", refund.metadata);
      p.done();
      if (metadata !== undefined) refund.metadata = metadata;
      return refund;
    },
  },
  {
    method: "GET",
    path: "/v1/refunds",
    handler({ store, params: p }) {
      const pi = p.string("payment_intent");
      const charge = p.string("charge");
      const cursor = page(p);
      p.done();
      return listOf(
        "/v1/refunds",
        store.list(
          "refund",
          (r) => (pi === undefined || r.payment_intent === pi) && (charge === undefined || r.charge === charge),
        ),
        cursor,
      );
    },
  },
];
