/**
 * What an answer looks like: the stored object without internal fields, with `expand` applied as
 * Stripe applies it. An id field named in `expand[]` is replaced by the object (`customer`,
 * `latest_invoice.payments`), dotted paths go deeper (at most 4 levels), `data.` walks a list, and
 * "includable" fields that Stripe leaves out unless asked (an invoice's `confirmation_secret` and
 * `payments`, a charge's `refunds`) appear only when expanded. Anything else is refused with
 * Stripe's "This property cannot be expanded" (400).
 */
import { invalidRequest } from "./errors.js";
import { listOf, type Obj, type Store, snapshot } from "./store.js";

/** Id fields each object type lets `expand` replace. */
const EXPANDABLE: Record<string, readonly string[]> = {
  payment_intent: ["customer", "payment_method", "latest_charge"],
  charge: ["customer", "payment_intent", "balance_transaction"],
  customer: ["default_source", "invoice_settings.default_payment_method"],
  invoice: ["customer", "default_payment_method", "latest_revision"],
  invoice_payment: ["invoice", "payment.payment_intent", "payment.charge"],
  subscription: ["customer", "default_payment_method", "latest_invoice", "schedule", "pending_setup_intent"],
  subscription_schedule: ["customer", "subscription"],
  setup_intent: ["customer", "payment_method"],
  payment_method: ["customer"],
  refund: ["charge", "payment_intent"],
  dispute: ["charge", "payment_intent"],
  price: ["product"],
};

/** Fields left out unless expanded, computed from the store. */
const INCLUDABLE: Record<string, Record<string, (obj: Obj, store: Store) => unknown>> = {
  invoice: {
    confirmation_secret: (invoice, store) => {
      const intent = invoice._payment_intent ? store.get(invoice._payment_intent) : undefined;
      return intent?.client_secret ? { client_secret: intent.client_secret, type: "payment_intent" } : null;
    },
    payments: (invoice, store) =>
      listOf(
        `/v1/invoices/${invoice.id}/payments`,
        store.list("invoice_payment", (p) => p.invoice === invoice.id),
        { limit: 100 },
      ),
  },
  charge: {
    refunds: (charge, store) =>
      listOf(
        `/v1/charges/${charge.id}/refunds`,
        store.list("refund", (r) => r.charge === charge.id),
        { limit: 100 },
      ),
  },
};

const MAX_DEPTH = 4;

export function render(store: Store, obj: Obj, expand: readonly string[] = []): Obj {
  const out = snapshot(obj);
  for (const path of expand) {
    const parts = path.split(".");
    if (parts.filter((p) => p !== "data").length > MAX_DEPTH || parts.some((p) => p === ""))
      throw invalidRequest(
        `You cannot expand more than ${MAX_DEPTH} levels of a property. Property: ${path.slice(0, 200)}`,
        "expand",
      );
    expandPath(store, out, obj, parts, path);
  }
  return out;
}

/** Expands `parts` inside `out` (the copy being answered), whose stored original is `source`. */
function expandPath(store: Store, out: Obj, source: Obj | undefined, parts: string[], full: string): void {
  if ((out.object === "list" || out.object === "search_result") && Array.isArray(out.data)) {
    if (parts[0] !== "data") throw cannotExpand(full);
    const rest = parts.slice(1);
    if (rest.length === 0) return;
    out.data.forEach((item: Obj, i: number) => {
      expandPath(store, item, source?.data?.[i] ?? store.get(item.id), rest, full);
    });
    return;
  }
  const type = out.object as string;
  // A dotted field such as `payment.payment_intent` is one expandable name.
  for (let take = Math.min(2, parts.length); take >= 1; take--) {
    const name = parts.slice(0, take).join(".");
    const rest = parts.slice(take);
    const includable = INCLUDABLE[type]?.[name];
    if (includable) {
      const original = source ?? store.get(out.id);
      if (!original) throw cannotExpand(full);
      const value = includable(original, store);
      setPath(out, name, value);
      if (rest.length > 0 && value && typeof value === "object") expandPath(store, value as Obj, undefined, rest, full);
      return;
    }
    if (EXPANDABLE[type]?.includes(name)) {
      const current = getPath(out, name);
      if (typeof current === "string") {
        const target = store.get(current);
        if (!target) return;
        const expanded = target.deleted ? { id: target.id, object: target.object, deleted: true } : snapshot(target);
        setPath(out, name, expanded);
        if (rest.length > 0) expandPath(store, expanded, target, rest, full);
      } else if (current && typeof current === "object" && rest.length > 0) {
        expandPath(store, current as Obj, store.get((current as Obj).id), rest, full);
      }
      return;
    }
  }
  // An embedded object (a subscription item's `price`, a list) can be walked into.
  const embedded = out[parts[0]!];
  if (parts.length > 1 && embedded && typeof embedded === "object" && !Array.isArray(embedded)) {
    expandPath(store, embedded as Obj, source?.[parts[0]!], parts.slice(1), full);
    return;
  }
  throw cannotExpand(full);
}

const cannotExpand = (path: string) =>
  invalidRequest(`This property cannot be expanded (${path.slice(0, 200)}).`, "expand");

function getPath(obj: Obj, dotted: string): unknown {
  return dotted.split(".").reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

function setPath(obj: Obj, dotted: string, value: unknown): void {
  const keys = dotted.split(".");
  let node = obj;
  for (const k of keys.slice(0, -1)) {
    if (node[k] == null || typeof node[k] !== "object") return;
    node = node[k];
  }
  node[keys.at(-1)!] = value;
}
