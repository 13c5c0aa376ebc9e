/** Customers: create, retrieve, update, delete, list (`email=`), and a customer's payment methods. */
import { invalidRequest } from "../errors.js";
import { newId } from "../ids.js";
import type { Params } from "../params.js";
import type { Route } from "../server.js";
import { listOf, type Obj, type Store } from "../store.js";

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function readEmail(p: Params): string | null | undefined {
  const email = p.nullableString("email", 512);
  if (email && !EMAIL.test(email))
    throw invalidRequest(`Invalid email address: ${email.slice(0, 80)}`, "email", "email_invalid");
  return email;
}

export function page(p: Params) {
  return {
    limit: p.int("limit", { min: 1, max: 100 }),
    startingAfter: p.string("starting_after"),
    endingBefore: p.string("ending_before"),
  };
}

/** Sets the customer's default payment method, checking it belongs to them. */
function readInvoiceSettings(store: Store, p: Params, customer: Obj | null): Obj | undefined {
  const settings = p.object("invoice_settings");
  if (settings == null) return undefined;
  const pm = settings.nullableString("default_payment_method");
  settings.done();
  if (pm === undefined) return undefined;
  if (pm !== null) {
    const found = store.require(pm, "payment_method", "invoice_settings[default_payment_method]", "PaymentMethod");
    if (!customer || found.customer !== customer.id)
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
        "invoice_settings[default_payment_method]",
        "resource_missing",
      );
  }
  return { ...(customer?.invoice_settings ?? {}), default_payment_method: pm };
}

export const customerRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/customers",
    handler({ store, params: p }) {
      const email = readEmail(p);
      const name = p.nullableString("name", 256);
      const phone = p.nullableString("phone", 20);
      const description = p.nullableString("description", 350);
      const metadata = p.metadata("metadata") ?? {};
      const preferred_locales = p.strings("preferred_locales") ?? [];
      if (p.has("invoice_settings")) readInvoiceSettings(store, p, null);
      p.done();
      const customer = store.put({
        id: newId("cus"),
        object: "customer",
        address: null,
        balance: 0,
        created: store.now(),
        currency: null,
        customer_account: null,
        default_source: null,
        delinquent: false,
        description: description ?? null,
        discount: null,
        email: email ?? null,
        invoice_prefix: newId("x").slice(2, 10).toUpperCase(),
        invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
        livemode: false,
        metadata,
        name: name ?? null,
        next_invoice_sequence: 1,
        phone: phone ?? null,
        preferred_locales,
        shipping: null,
        tax_exempt: "none",
        test_clock: null,
      });
      store.emit("customer.created", customer);
      return customer;
    },
  },
  {
    method: "GET",
    path: "/v1/customers/:id",
    handler({ store, id, params: p }) {
      p.done();
      const customer = store.get(id, "customer");
      if (customer?.deleted) return { id, object: "customer", deleted: true };
      return store.require(id, "customer");
    },
  },
  {
    method: "POST",
    path: "/v1/customers/:id",
    handler({ store, id, params: p }) {
      const customer = store.require(id, "customer");
      const email = readEmail(p);
      const name = p.nullableString("name", 256);
      const phone = p.nullableString("phone", 20);
      const description = p.nullableString("description", 350);
      const metadata = p.metadata("metadata", customer.metadata);
      const invoice_settings = readInvoiceSettings(store, p, customer);
      p.done();
      const previous: Obj = {};
      const set = (key: string, value: unknown) => {
        if (value === undefined || JSON.stringify(customer[key]) === JSON.stringify(value)) return;
        previous[key] = customer[key];
        customer[key] = value;
      };
      set("email", email);
      set("name", name);
      set("phone", phone);
      set("description", description);
      set("metadata", metadata);
      set("invoice_settings", invoice_settings);
      if (Object.keys(previous).length > 0) store.emit("customer.updated", customer, previous);
      return customer;
    },
  },
  {
    method: "DELETE",
    path: "/v1/customers/:id",
    handler({ store, id, params: p }) {
      const customer = store.require(id, "customer");
      p.done();
      for (const sub of store.list("subscription", (s) => s.customer === id && s.status !== "canceled")) {
        sub.status = "canceled";
        sub.canceled_at = sub.ended_at = store.now();
        store.emit("customer.subscription.deleted", sub);
      }
      customer.deleted = true;
      store.emit("customer.deleted", customer);
      return { id, object: "customer", deleted: true };
    },
  },
  {
    method: "GET",
    path: "/v1/customers",
    handler({ store, params: p }) {
      const email = p.string("email", { max: 512 });
      const cursor = page(p);
      p.done();
      const all = store.list("customer", (c) => !c.deleted && (email === undefined || c.email === email));
      return listOf("/v1/customers", all, cursor);
    },
  },
  {
    method: "GET",
    path: "/v1/customers/:id/payment_methods",
    handler({ store, id, params: p }) {
      store.require(id, "customer");
      const type = p.string("type");
      const cursor = page(p);
      p.done();
      const all = store.list("payment_method", (pm) => pm.customer === id && (type === undefined || pm.type === type));
      return listOf(`/v1/customers/${id}/payment_methods`, all, cursor);
    },
  },
];
