/**
 * Search for customers, PaymentIntents and subscriptions with Stripe's query language, in the
 * small part a donations backend uses: clauses `field:'value'` joined by AND (or all by OR), on
 * `email`, `name`, `status`, `customer` and `metadata['key']`. Answers `{ object: "search_result",
 * data, has_more, next_page, url }`. (Stripe's search index lags by up to a minute; this one does not.)
 */
import { invalidRequest } from "../errors.js";
import type { Route } from "../server.js";
import type { Obj } from "../store.js";

const CLAUSE = /^(?:metadata\[(['"])([^'"]{1,40})\1\]|([a-z_]{1,40})):(['"])((?:[^'"\\]|\\.){0,500})\4$/;

function parseQuery(query: string, fields: readonly string[]): (o: Obj) => boolean {
  const trimmed = query.trim();
  if (trimmed.length === 0 || trimmed.length > 1000) throw invalidRequest("Invalid search query.", "query");
  const and = trimmed.split(/\s+AND\s+/);
  const or = trimmed.split(/\s+OR\s+/);
  if (and.length > 1 && or.length > 1) throw invalidRequest("A search query cannot mix AND and OR.", "query");
  const parts = (and.length > 1 ? and : or).map((clause) => {
    const m = CLAUSE.exec(clause.trim());
    if (!m) throw invalidRequest(`Invalid search query clause: ${clause.slice(0, 100)}`, "query");
    const value = m[5]!.replace(/\\(.)/g, "$1");
    if (m[2] !== undefined) return (o: Obj) => o.metadata?.[m[2]!] === value;
    const field = m[3]!;
    if (!fields.includes(field))
      throw invalidRequest(`Field '${field}' is an unsupported search field for this resource.`, "query");
    return (o: Obj) => String(o[field] ?? "") === value;
  });
  return and.length > 1 ? (o) => parts.every((f) => f(o)) : (o) => parts.some((f) => f(o));
}

function searchRoute(path: string, object: string, fields: readonly string[]): Route {
  return {
    method: "GET",
    path,
    handler({ store, params: p }) {
      const query = p.string("query", { required: true, max: 1000 })!;
      const limit = p.int("limit", { min: 1, max: 100 }) ?? 10;
      p.string("page");
      p.done();
      const match = parseQuery(query, fields);
      const all = store.list(object, (o) => !o.deleted && match(o));
      return {
        object: "search_result",
        data: all.slice(0, limit),
        has_more: all.length > limit,
        next_page: null,
        url: path,
      };
    },
  };
}

/** Registered before the `/:id` routes, which would otherwise take "search" for an id. */
export const searchRoutes: Route[] = [
  searchRoute("/v1/customers/search", "customer", ["email", "name", "phone"]),
  searchRoute("/v1/payment_intents/search", "payment_intent", ["status", "customer", "amount", "currency"]),
  searchRoute("/v1/subscriptions/search", "subscription", ["status", "customer"]),
];
