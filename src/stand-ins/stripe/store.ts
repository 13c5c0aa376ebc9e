/**
 * The stand-in's state, in memory: every object by id (stored in Stripe's JSON shape, with
 * internal links in fields that start with `_`, never sent), the events in order, the idempotent
 * results, and the test clock. One store per running stand-in; nothing is shared between them.
 */
import { noSuch } from "./errors.js";
import { newId } from "./ids.js";

/** A Stripe object as JSON. */
export type Obj = Record<string, any>;

export interface StripeEventJson {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: Obj; previous_attributes?: Obj };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface IdempotentResult {
  method: string;
  path: string;
  /** The parameters, canonical: a reuse with others is refused. */
  params: string;
  status: number;
  body: string;
  requestId: string;
}

/** Which request is being handled, for the `request` field of the events it causes. */
export interface RequestContext {
  id: string;
  idempotencyKey: string | null;
}

/** The API version this stand-in speaks: the one the pinned `stripe` SDK sends (Stripe.API_VERSION). */
export const API_VERSION = "2026-10-28.endive";

export class Store {
  private readonly objects = new Map<string, Obj>();
  /** Each kind's objects in creation order, so a list walks one kind only. */
  private readonly byKind = new Map<string, Obj[]>();
  readonly events: StripeEventJson[] = [];
  readonly idempotency = new Map<string, IdempotentResult>();
  request: RequestContext | null = null;
  /** Called for each new event (delivery to the webhook endpoint). */
  onEvent: (event: StripeEventJson) => void = () => {};
  private order = 0;
  /** What other resources do when an intent settles (an invoice's intent pays the invoice). */
  private readonly hooks = new Map<string, ((obj: Obj) => void)[]>();

  constructor(private clock: () => Date) {}

  setClock(clock: () => Date): void {
    this.clock = clock;
  }

  private pinned: number | null = null;

  /** Now on the test clock, in Unix seconds as Stripe writes times. */
  now(): number {
    return this.pinned ?? Math.floor(this.clock().getTime() / 1000);
  }

  /** Runs `fn` as if now were `time`: what falls due while the clock moves is dated when it fell due. */
  at<T>(time: number, fn: () => T): T {
    const before = this.pinned;
    this.pinned = time;
    try {
      return fn();
    } finally {
      this.pinned = before;
    }
  }

  put(obj: Obj): Obj {
    if (!this.objects.has(obj.id)) {
      obj._order = this.order++;
      let kind = this.byKind.get(obj.object);
      if (!kind) this.byKind.set(obj.object, (kind = []));
      kind.push(obj);
    }
    this.objects.set(obj.id, obj);
    return obj;
  }

  get(id: string, object?: string): Obj | undefined {
    const found = this.objects.get(id);
    return found && (object === undefined || found.object === object) ? found : undefined;
  }

  /** The object, or Stripe's 404 `No such <what>: '<id>'`. */
  require(id: string, object: string, param = "id", what = object): Obj {
    const found = this.get(id, object);
    if (!found || found.deleted) throw noSuch(what, id, param);
    return found;
  }

  /** Objects of one kind, newest first (Stripe's list order). */
  list(object: string, filter: (o: Obj) => boolean = () => true): Obj[] {
    const out: Obj[] = [];
    const kind = this.byKind.get(object) ?? [];
    // Kept in creation order: walking it backwards is newest first, without a sort.
    for (let i = kind.length - 1; i >= 0; i--) if (filter(kind[i]!)) out.push(kind[i]!);
    return out;
  }

  on(hook: "intent.succeeded" | "intent.failed", fn: (obj: Obj) => void): void {
    this.hooks.set(hook, [...(this.hooks.get(hook) ?? []), fn]);
  }

  fire(hook: "intent.succeeded" | "intent.failed", obj: Obj): void {
    for (const fn of this.hooks.get(hook) ?? []) fn(obj);
  }

  /** Records an event with a copy of the object as it is now, and hands it to delivery. */
  emit(type: string, obj: Obj, previous?: Obj): StripeEventJson {
    const event: StripeEventJson = {
      id: newId("evt"),
      object: "event",
      api_version: API_VERSION,
      created: this.now(),
      data: previous ? { object: snapshot(obj), previous_attributes: snapshot(previous) } : { object: snapshot(obj) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: this.request?.id ?? null, idempotency_key: this.request?.idempotencyKey ?? null },
      type,
    };
    this.events.push(event);
    this.onEvent(event);
    return event;
  }
}

/** A deep copy without the internal `_` fields. */
export function snapshot(obj: Obj): Obj {
  return JSON.parse(JSON.stringify(obj, (key, value) => (key.startsWith("_") ? undefined : value)));
}

/** `{ object: "list", data, has_more, url }` from objects newest first, with Stripe's cursor params. */
export function listOf(
  url: string,
  all: Obj[],
  page: { limit?: number; startingAfter?: string; endingBefore?: string } = {},
): Obj {
  const limit = page.limit ?? 10;
  let items = all;
  if (page.startingAfter) {
    const at = all.findIndex((o) => o.id === page.startingAfter);
    items = at === -1 ? [] : all.slice(at + 1);
  } else if (page.endingBefore) {
    const at = all.findIndex((o) => o.id === page.endingBefore);
    items = at === -1 ? [] : all.slice(Math.max(0, at - limit), at);
    return { object: "list", data: items, has_more: at - limit > 0, url };
  }
  return { object: "list", data: items.slice(0, limit), has_more: items.length > limit, url };
}
