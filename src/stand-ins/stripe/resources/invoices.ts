/**
 * Invoices (made by subscriptions): retrieve, list (`subscription=`, `customer=`, `status=`), their
 * lines, pay (an open invoice, with its default or a given payment method), void; and
 * InvoicePayments, the link from an invoice to its PaymentIntent in this API version.
 */
import { chargeInvoice, defaultPaymentMethod, voidInvoice } from "../billing.js";
import { resolvePaymentMethod } from "../cards.js";
import { invalidRequest, unexpectedState } from "../errors.js";
import type { Route } from "../server.js";
import { listOf } from "../store.js";
import { page } from "./customers.js";

const STATUSES = ["draft", "open", "paid", "uncollectible", "void"] as const;

export const invoiceRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/invoices/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "invoice", "invoice");
    },
  },
  {
    method: "GET",
    path: "/v1/invoices",
    handler({ store, params: p }) {
      const customer = p.string("customer");
      const subscription = p.string("subscription");
      const status = p.oneOf("status", STATUSES);
      const cursor = page(p);
      p.value("created");
      p.value("collection_method");
      p.done();
      return listOf(
        "/v1/invoices",
        store.list(
          "invoice",
          (i) =>
            (customer === undefined || i.customer === customer) &&
            (subscription === undefined || i.parent?.subscription_details?.subscription === subscription) &&
            (status === undefined || i.status === status),
        ),
        cursor,
      );
    },
  },
  {
    method: "GET",
    path: "/v1/invoices/:id/lines",
    handler({ store, id, params: p }) {
      const cursor = page(p);
      p.done();
      const invoice = store.require(id, "invoice", "invoice");
      return listOf(`/v1/invoices/${id}/lines`, invoice.lines.data, cursor);
    },
  },
  {
    method: "POST",
    path: "/v1/invoices/:id/pay",
    handler({ store, id, params: p }) {
      const invoice = store.require(id, "invoice", "invoice");
      const pmId = p.string("payment_method", { max: 255 });
      p.bool("off_session");
      p.bool("forgive");
      p.bool("paid_out_of_band");
      p.done();
      if (invoice.status !== "open") throw unexpectedState(`Invoice is already ${invoice.status}.`, "invoice_not_open");
      const pm = pmId ? resolvePaymentMethod(store, pmId) : undefined;
      if (pm && pm.customer !== invoice.customer)
        throw invalidRequest("The payment method must be attached to the invoice's customer.", "payment_method");
      const sub = invoice.parent?.subscription_details?.subscription;
      const fallback = sub ? defaultPaymentMethod(store, store.require(sub, "subscription")) : undefined;
      chargeInvoice(store, invoice, pm ?? fallback, { throwOnDecline: true });
      return invoice;
    },
  },
  {
    method: "POST",
    path: "/v1/invoices/:id/void",
    handler({ store, id, params: p }) {
      const invoice = store.require(id, "invoice", "invoice");
      p.done();
      if (invoice.status !== "open")
        throw unexpectedState(`You can only void an open invoice; this one is ${invoice.status}.`, "invoice_not_open");
      voidInvoice(store, invoice);
      return invoice;
    },
  },
  {
    method: "GET",
    path: "/v1/invoice_payments/:id",
    handler({ store, id, params: p }) {
      p.done();
      return store.require(id, "invoice_payment", "invoice_payment");
    },
  },
  {
    method: "GET",
    path: "/v1/invoice_payments",
    handler({ store, params: p }) {
      const invoice = p.string("invoice");
      const payment = p.object("payment");
      let intent: string | undefined;
      if (payment) {
        payment.oneOf("type", ["payment_intent"] as const);
        intent = payment.string("payment_intent");
        payment.done();
      }
      const status = p.string("status");
      const cursor = page(p);
      p.done();
      return listOf(
        "/v1/invoice_payments",
        store.list(
          "invoice_payment",
          (x) =>
            (invoice === undefined || x.invoice === invoice) &&
            (intent === undefined || x.payment.payment_intent === intent) &&
            (status === undefined || x.status === status),
        ),
        cursor,
      );
    },
  },
];
