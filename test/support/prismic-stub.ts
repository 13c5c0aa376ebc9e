/**
 * A local Prismic v2 Document API on 127.0.0.1: a real HTTP server that answers the URLs
 * `@prismicio/client` v7 builds (repository root `GET /api/v2`, `GET /api/v2/documents/search`),
 * with the real API's response and error shapes, so tests exercise the real client end to end.
 *
 * What it models:
 * - refs: the master ref (a new one on every `setDocuments`, old refs stay queryable like on the
 *   real API until `dropRef`), plus preview/release refs with their own documents;
 * - the predicates the client sends for ids, uids, types and tags (others → 400 parsing error);
 * - `lang` (`*` = all, absent = master language), `page`/`pageSize` (1–100), `orderings`, `routes`
 *   (fills `url`), `access_token` (401 when missing or wrong, as the real API answers);
 * - fault injection per path: status codes with or without `retry-after`, slow responses,
 *   destroyed sockets (a network error for the client), and stalls (no answer at all, or the
 *   headers and half the body, then nothing: the connection stays open until `stop`), and answers of 200 whose body is malformed
 *   (`malform`: results a string, a document without an id, wrong page counts, HTML instead of JSON);
 * - a request log with arrival times, so tests can check paging and the pause between pages.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PrismicDocument } from "@prismicio/client";

export interface StubLanguage {
  id: string;
  name: string;
}

export interface PrismicStubOptions {
  documents: PrismicDocument[];
  /** The initial master ref; generated when absent. */
  ref?: string;
  /** Used in the oauth URLs and document hrefs only (the stub serves one repository). */
  repository?: string;
  /** When set, every request must carry `access_token=<this>`. */
  accessToken?: string;
  /** Extra refs (preview tokens or releases) and the documents they show. */
  previewRefs?: Record<string, PrismicDocument[]>;
  /** Master language first. Defaults to en-au plus any other language found in the documents. */
  languages?: StubLanguage[];
}

export type StubFault =
  | { status: number; retryAfter?: number; body?: unknown; delayMs?: number }
  | { delayMs: number; status?: undefined }
  | { destroy: true; delayMs?: number }
  | { stall: "headers" | "body" }
  | { malform: Malformation; delayMs?: number; status?: undefined };

/** Ways a 200 answer can be wrong while still arriving whole. */
export const MALFORMATIONS = [
  "results-string",
  "results-missing",
  "missing-id",
  "missing-data",
  "not-a-document",
  "wrong-total-pages",
  "wrong-page",
  "html",
  "truncated-json",
  "refs-string",
] as const;
export type Malformation = (typeof MALFORMATIONS)[number];

/** The real answer's body, changed as `how` says (a string body is sent as is). */
function malformed(body: unknown, how: Malformation): { body: unknown; contentType?: string } {
  const copy = structuredClone(body) as Record<string, unknown> & { results?: Record<string, unknown>[] };
  switch (how) {
    case "results-string":
      return { body: { ...copy, results: "results" } };
    case "results-missing":
      delete copy.results;
      return { body: copy };
    case "missing-id":
      if (copy.results?.[0]) delete copy.results[0].id;
      return { body: copy };
    case "missing-data":
      if (copy.results?.[0]) copy.results[0].data = null as unknown as Record<string, unknown>;
      return { body: copy };
    case "not-a-document":
      copy.results = [...(copy.results ?? []), 42 as unknown as Record<string, unknown>];
      return { body: copy };
    case "wrong-total-pages":
      return { body: { ...copy, total_pages: Number(copy.total_pages) + 3 } };
    case "wrong-page":
      return { body: { ...copy, page: Number(copy.page) + 1 } };
    case "html":
      return {
        body: "<!doctype html><html><head><title>Sign in to the Wi-Fi</title></head><body>Captive portal</body></html>",
        contentType: "text/html",
      };
    case "truncated-json":
      return { body: JSON.stringify(copy).slice(0, 200), contentType: "application/json" };
    case "refs-string":
      return { body: { ...copy, refs: "master" } };
  }
}

export interface StubRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Milliseconds since the stub started, at arrival. */
  time: number;
  status: number | "destroyed" | "stalled";
}

export const ROOT_PATH = "/api/v2";
export const SEARCH_PATH = "/api/v2/documents/search";
const VERSION = "stub-1";
const LICENSE = "All Rights Reserved";

export class PrismicStub {
  readonly requests: StubRequest[] = [];
  private server!: Server;
  private readonly started = performance.now();
  private readonly refs = new Map<string, PrismicDocument[]>();
  private readonly releases: { id: string; ref: string; label: string }[] = [];
  private readonly faults: { path: string; fault: StubFault }[] = [];
  private masterRef: string;
  private refCounter = 0;
  private readonly repository: string;
  private readonly accessToken?: string;
  private languages?: StubLanguage[];

  private constructor(options: PrismicStubOptions) {
    this.repository = options.repository ?? "nzf-test";
    this.accessToken = options.accessToken;
    this.languages = options.languages;
    this.masterRef = options.ref ?? this.nextRef();
    this.refs.set(this.masterRef, options.documents);
    for (const [ref, docs] of Object.entries(options.previewRefs ?? {})) this.refs.set(ref, docs);
  }

  static async start(options: PrismicStubOptions): Promise<PrismicStub> {
    const stub = new PrismicStub(options);
    stub.server = createServer((req, res) => void stub.handle(req, res));
    await new Promise<void>((resolve) => stub.server.listen(0, "127.0.0.1", resolve));
    return stub;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  /** The documentAPIEndpoint to give the client. */
  get endpoint(): string {
    return this.origin + ROOT_PATH;
  }
  get ref(): string {
    return this.masterRef;
  }

  /** Publishes a new version: a new master ref showing `documents`. Returns the new ref. */
  setDocuments(documents: PrismicDocument[], ref = this.nextRef()): string {
    this.masterRef = ref;
    this.refs.set(ref, documents);
    return ref;
  }

  /** The documents a ref shows (the master ref's: `stub.documentsAt(stub.ref)`). */
  documentsAt(ref: string): PrismicDocument[] {
    return [...(this.refs.get(ref) ?? [])];
  }

  /** Adds a preview or release ref. With a label it is listed in the root's refs like a release. */
  addPreviewRef(ref: string, documents: PrismicDocument[], label?: string): void {
    this.refs.set(ref, documents);
    if (label) this.releases.push({ id: `release-${this.releases.length + 1}`, ref, label });
  }

  /** Makes a ref unknown (as when it has been garbage-collected by the real API). */
  dropRef(ref: string): void {
    this.refs.delete(ref);
  }

  /** Applies `fault` to the next `times` requests whose path is `path` ("*" for any path). */
  inject(path: string, fault: StubFault, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push({ path, fault });
  }

  /** Drops every fault not yet applied. */
  clearFaults(): void {
    this.faults.length = 0;
  }

  requestsTo(path: string): StubRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Closes the server and its keep-alive connections; safe to call twice. */
  async stop(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  private nextRef(): string {
    this.refCounter += 1;
    return `ZstubAAA${String(this.refCounter).padStart(4, "0")}${Math.random().toString(36).slice(2, 8)}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.origin);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      query[key] = all.length === 1 ? all[0]! : all;
    }
    const entry: StubRequest = {
      method: req.method ?? "GET",
      path,
      query,
      time: performance.now() - this.started,
      status: 200,
    };
    this.requests.push(entry);

    const index = this.faults.findIndex((f) => f.path === "*" || f.path === path);
    const fault = index >= 0 ? this.faults.splice(index, 1)[0]!.fault : undefined;
    if (fault && "stall" in fault) {
      entry.status = "stalled";
      if (fault.stall === "body") {
        const text = JSON.stringify(this.answer(path, url.searchParams).body);
        res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
        res.write(text.slice(0, Math.floor(text.length / 2)));
      }
      return;
    }
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault && "destroy" in fault) {
      entry.status = "destroyed";
      req.socket.destroy();
      return;
    }
    if (fault && "malform" in fault) {
      const answer = this.answer(path, url.searchParams);
      const bad = malformed(answer.body, fault.malform);
      entry.status = 200;
      return send(res, 200, bad.body, bad.contentType ? { "content-type": bad.contentType } : {});
    }
    if (fault?.status !== undefined) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
      entry.status = fault.status;
      return send(res, fault.status, fault.body ?? faultBody(fault.status), headers);
    }

    const answer = this.answer(path, url.searchParams);
    entry.status = answer.status;
    send(res, answer.status, answer.body);
  }

  private answer(path: string, params: URLSearchParams): { status: number; body: unknown } {
    if (this.accessToken !== undefined && params.get("access_token") !== this.accessToken) {
      // The real API answers 401 with this body for a missing and for a wrong token alike.
      return {
        status: 401,
        body: {
          error: "Invalid access token",
          message: "Invalid access token",
          oauth_initiate: this.oauthUrl(),
          oauth_token: `${this.oauthUrl()}/token`,
        },
      };
    }
    if (path === ROOT_PATH) return { status: 200, body: this.root() };
    if (path === SEARCH_PATH) return this.search(params);
    return { status: 404, body: { message: `Not found: ${path}` } };
  }

  private oauthUrl(): string {
    return `https://${this.repository}.prismic.io/auth`;
  }

  private allLanguages(): StubLanguage[] {
    if (this.languages) return this.languages;
    const ids = new Set<string>(["en-au"]);
    for (const doc of this.refs.get(this.masterRef) ?? []) ids.add(doc.lang);
    return [...ids].map((id) => ({ id, name: id }));
  }

  private root(): unknown {
    const master = this.allLanguages()[0]!.id;
    const types: Record<string, string> = {};
    for (const doc of this.refs.get(this.masterRef) ?? []) types[doc.type] = doc.type.replace(/_/g, " ");
    return {
      refs: [
        { id: "master", ref: this.masterRef, label: "Master", isMasterRef: true },
        ...this.releases.map((r) => ({ ...r, isMasterRef: false })),
      ],
      integrationFieldsRef: null,
      bookmarks: {},
      types,
      languages: this.allLanguages().map((l) => ({ ...l, is_master: l.id === master })),
      tags: [],
      forms: {
        everything: {
          method: "GET",
          enctype: "application/x-www-form-urlencoded",
          action: this.origin + SEARCH_PATH,
          fields: Object.fromEntries(
            [
              "ref",
              "q",
              "lang",
              "page",
              "pageSize",
              "after",
              "fetch",
              "fetchLinks",
              "graphQuery",
              "orderings",
              "routes",
              "brokenRoute",
              "access_token",
            ].map((name) => [
              name,
              { type: name === "page" || name === "pageSize" ? "Integer" : "String", multiple: name === "q" },
            ]),
          ),
        },
      },
      oauth_initiate: this.oauthUrl(),
      oauth_token: `${this.oauthUrl()}/token`,
      version: VERSION,
      license: LICENSE,
      experiments: { draft: [], running: [] },
    };
  }

  private search(params: URLSearchParams): { status: number; body: unknown } {
    const ref = params.get("ref");
    if (!ref) return parsingError("Missing ref parameter");
    const docs = this.refs.get(ref);
    if (!docs) {
      return {
        status: 404,
        body: {
          type: "api_notfound_error",
          message: `Ref not found. Ensure you have the correct ref and try again. Master ref is: ${this.masterRef}`,
        },
      };
    }
    const page = Number(params.get("page") ?? 1);
    const pageSize = Number(params.get("pageSize") ?? 20);
    if (!Number.isInteger(page) || page < 1)
      return parsingError(`page must be a positive integer, got ${params.get("page")}`);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
      return parsingError(`pageSize must be between 1 and 100, got ${params.get("pageSize")}`);

    let selected = docs;
    const lang = params.get("lang") ?? this.allLanguages()[0]!.id;
    if (lang !== "*") selected = selected.filter((d) => d.lang === lang);
    for (const q of params.getAll("q")) {
      const predicates = parsePredicates(q);
      if (typeof predicates === "string") return parsingError(predicates);
      selected = selected.filter((d) => predicates.every((p) => p(d)));
    }
    const orderings = params.get("orderings");
    if (orderings) selected = order(selected, orderings);
    const routes = params.get("routes");
    const resolveUrl = routes ? urlResolver(JSON.parse(routes) as RouteSpec[], this.allLanguages()[0]!.id) : undefined;

    const total = selected.length;
    const totalPages = Math.ceil(total / pageSize);
    const results = selected
      .slice((page - 1) * pageSize, page * pageSize)
      .map((d) => (resolveUrl ? { ...d, url: resolveUrl(d) } : d));
    const pageUrl = (n: number) => {
      const u = new URL(this.origin + SEARCH_PATH);
      params.forEach((v, k) => {
        if (k !== "page") u.searchParams.append(k, v);
      });
      u.searchParams.set("page", String(n));
      return u.toString();
    };
    return {
      status: 200,
      body: {
        page,
        results_per_page: pageSize,
        results_size: results.length,
        total_results_size: total,
        total_pages: totalPages,
        next_page: page < totalPages ? pageUrl(page + 1) : null,
        prev_page: page > 1 ? pageUrl(page - 1) : null,
        results,
        version: VERSION,
        license: LICENSE,
      },
    };
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  // CORS like the real CDN, so browser and happy-dom tests can call the stub from a page origin.
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/plain" : "application/json",
    "access-control-allow-origin": "*",
    ...headers,
  });
  res.end(text);
}

function faultBody(status: number): unknown {
  if (status === 400)
    return { type: "parsing-error", message: "Injected parsing error", line: 1, column: 1, id: 1, location: "q" };
  if (status === 401 || status === 403) return { error: "Invalid access token", message: "Invalid access token" };
  if (status === 404) return { message: "Repository not found" };
  if (status === 429) return { message: "Too many requests" };
  return `Injected error ${status}`;
}

function parsingError(message: string): { status: number; body: unknown } {
  return { status: 400, body: { type: "parsing-error", message, line: 1, column: 1, id: 1, location: "q" } };
}

// ---- predicates ------------------------------------------------------------------------------

type Value = string | number | Value[];
type Predicate = (doc: PrismicDocument) => boolean;

/** Parses `[[at(document.type, "x")][any(...)]]`; returns an error message when it cannot. */
export function parsePredicates(q: string): Predicate[] | string {
  const text = q.trim();
  if (!text.startsWith("[") || !text.endsWith("]")) return `unexpected query ${q}: expected [[...]]`;
  const body = text.slice(1, -1);
  const out: Predicate[] = [];
  const re = /\[\s*([a-zA-Z.-]+)\(\s*([a-zA-Z0-9_.]+)\s*(?:,\s*(.*?))?\)\s*\]/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < body.length && (m = re.exec(body))) {
    pos = re.lastIndex;
    const [, name, path, rawArgs] = m;
    let args: Value[];
    try {
      args = rawArgs ? (JSON.parse(`[${rawArgs}]`) as Value[]) : [];
    } catch {
      return `unexpected arguments in ${m[0]} at column ${m.index + 2}`;
    }
    const predicate = makePredicate(name!, path!, args);
    if (typeof predicate === "string") return predicate;
    out.push(predicate);
  }
  if (pos !== body.length || out.length === 0) return `unexpected token in ${q} at column ${pos + 2}`;
  return out;
}

function valueAt(doc: PrismicDocument, path: string): unknown {
  if (path === "document.type") return doc.type;
  if (path === "document.id") return doc.id;
  if (path === "document.tags") return doc.tags;
  const my = /^my\.([a-z0-9_]+)\.([a-z0-9_]+)$/i.exec(path);
  if (my) {
    if (doc.type !== my[1]) return undefined;
    return my[2] === "uid" ? doc.uid : (doc.data as Record<string, unknown>)[my[2]!];
  }
  return undefined;
}

/** Prismic's `date.after(document.last_publication_date, <epoch ms or ISO date>)`: strictly after. */
function datePredicate(path: string, args: Value[]): Predicate | string {
  const field = /^document\.(first|last)_publication_date$/.exec(path);
  if (!field) return `date.after on ${path} is not supported by the local stub`;
  const [arg] = args;
  const after = typeof arg === "number" ? arg : typeof arg === "string" ? Date.parse(arg) : Number.NaN;
  if (!Number.isFinite(after)) return `date.after expects a date, got ${JSON.stringify(arg)}`;
  return (d) => {
    const value = field[1] === "first" ? d.first_publication_date : d.last_publication_date;
    return Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, "$1:$2")) > after;
  };
}

function makePredicate(name: string, path: string, args: Value[]): Predicate | string {
  if (name === "date.after") return datePredicate(path, args);
  if (!["at", "not", "any", "in"].includes(name))
    return `unexpected predicate ${name} (not supported by the local stub)`;
  if (!/^(document\.(type|id|tags)|my\.[a-z0-9_]+\.[a-z0-9_]+)$/i.test(path))
    return `unknown path ${path} (not supported by the local stub)`;
  const [arg] = args;
  switch (name) {
    case "at":
      if (path === "document.tags") return (d) => Array.isArray(arg) && arg.every((t) => d.tags.includes(String(t)));
      return (d) => valueAt(d, path) === arg;
    case "not":
      return (d) => valueAt(d, path) !== arg;
    case "any":
    case "in": {
      if (!Array.isArray(arg)) return `${name} expects a list, got ${JSON.stringify(arg)}`;
      if (path === "document.tags") return (d) => d.tags.some((t) => arg.includes(t));
      return (d) => arg.includes(valueAt(d, path) as Value);
    }
    default:
      return `unexpected predicate ${name} (not supported by the local stub)`;
  }
}

function order(docs: PrismicDocument[], orderings: string): PrismicDocument[] {
  const keys = orderings
    .replace(/^\[|\]$/g, "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [field, direction] = s.split(/\s+/);
      return { field: field!, desc: direction === "desc" };
    });
  const get = (d: PrismicDocument, field: string): unknown =>
    field === "document.first_publication_date"
      ? d.first_publication_date
      : field === "document.last_publication_date"
        ? d.last_publication_date
        : valueAt(d, field);
  return [...docs].sort((a, b) => {
    for (const { field, desc } of keys) {
      const x = get(a, field) as string | number | undefined;
      const y = get(b, field) as string | number | undefined;
      if (x === y) continue;
      const cmp = x === undefined ? 1 : y === undefined ? -1 : x < y ? -1 : 1;
      return desc ? -cmp : cmp;
    }
    return 0;
  });
}

interface RouteSpec {
  type: string;
  path: string;
  uid?: string;
  lang?: string;
}

function urlResolver(routes: RouteSpec[], masterLang: string): (doc: PrismicDocument) => string | null {
  return (doc) => {
    const route = routes.find(
      (r) => r.type === doc.type && (!r.uid || r.uid === doc.uid) && (!r.lang || r.lang === doc.lang),
    );
    if (!route) return null;
    return route.path
      .replace(/\/:lang\?/g, doc.lang === masterLang ? "" : `/${doc.lang}`)
      .replace(/:lang/g, doc.lang)
      .replace(/:uid\??/g, doc.uid ?? "");
  };
}

// ---- fixtures -----------------------------------------------------------------------------------

export interface MakeDocumentInput {
  id: string;
  type: string;
  uid?: string | null;
  lang?: string;
  tags?: string[];
  data?: Record<string, unknown>;
  date?: string;
}

/** A document in the exact shape the v2 API returns. */
export function makeDocument(input: MakeDocumentInput): PrismicDocument {
  const date = input.date ?? "2024-01-01T00:00:00+0000";
  return {
    id: input.id,
    uid: input.uid ?? null,
    url: null,
    type: input.type,
    href: `https://nzf-test.cdn.prismic.io/api/v2/documents/search?ref=stub&q=%5B%5B%3Ad+%3D+at%28document.id%2C+%22${input.id}%22%29+%5D%5D`,
    tags: input.tags ?? [],
    first_publication_date: date as PrismicDocument["first_publication_date"],
    last_publication_date: date as PrismicDocument["last_publication_date"],
    slugs: [],
    linked_documents: [],
    lang: input.lang ?? "en-au",
    alternate_languages: [],
    data: input.data ?? {},
  };
}

/** `count` documents of one type with ids `<prefix>0001`…, handy for paging tests. */
export function makeDocuments(count: number, type = "blog_article", prefix = "doc"): PrismicDocument[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(4, "0");
    return makeDocument({
      id: `${prefix}${n}`,
      type,
      uid: `${type.replace(/_/g, "-")}-${n}`,
      data: { title: `Title ${n}` },
    });
  });
}

export function startPrismicStub(options: PrismicStubOptions): Promise<PrismicStub> {
  return PrismicStub.start(options);
}
