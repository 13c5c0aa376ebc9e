/**
 * The fetch stage: every published document of the repository, in every language, at one master
 * ref, into `content-cache/<repository>/snapshot.json`.
 *
 * - The repository root is read once; its master ref is pinned for every page (see fetch-pin.ts), so
 *   a publish during the fetch cannot mix two versions.
 * - When the cached snapshot is already at that ref, nothing else is downloaded (one request).
 * - Pages of 100 (the most Prismic's API gives per page) with a 500 ms pause between them (the pause
 *   Prismic's own client keeps, so a large repository is not fetched in a burst). We page ourselves
 *   rather than with `dangerouslyGetAll`, whose 500 ms pause is a hard-coded `setTimeout`: going
 *   through `deps.sleep` (real by default) lets a caller pace the fetch itself (bench/site.ts's
 *   webhook rebuilds wait none).
 * - Retries live in our fetch wrapper (fetch-retry.ts); errors map onto the catalogue (fetch-errors.ts).
 * - The snapshot is written atomically and only after the last page arrived: a failed fetch leaves
 *   the previous snapshot byte for byte as it was.
 */
import type { Route } from "@prismicio/client";
import { NzfError } from "../core/errors.js";
import { formatMs, type Logger } from "../core/logger.js";
import { mapFetchError } from "./fetch-errors.js";
import { createPinnedFetch, type PinnedFetch } from "./fetch-pin.js";
import { createRetryingFetch, redactUrl } from "./fetch-retry.js";
import { realSleep } from "../core/retry.js";
import {
  loadSnapshot,
  snapshotPath,
  writeAndRememberSnapshot,
  type Snapshot,
  type SnapshotMemory,
} from "./snapshot.js";
import { checkRepositoryAnswer, checkSearchPage } from "./answer-check.js";
import { checkSiteContent, SITE_SINGLETONS } from "./snapshot-check.js";

export const PAGE_SIZE = 100;
export const PAGE_PAUSE_MS = 500;

export interface FetchOptions {
  repository: string;
  /** A custom documentAPIEndpoint, e.g. http://127.0.0.1:PORT/api/v2; defaults to the repository's CDN endpoint. */
  endpoint?: string;
  accessToken?: string;
  /** The content-cache folder. */
  cacheDir: string;
  /** Route resolvers sent to the API so documents come back with `url` filled. */
  routes?: Route[];
  /**
   * Ids of the documents a webhook said changed: a hint, never the truth. With a cached snapshot,
   * these and every document published since the snapshot's newest are downloaded at the new ref
   * and merged in (fetchChangedOnly); when the merged count disagrees with the repository's,
   * everything is fetched as usual.
   */
  changedIds?: string[];
}

/** Past this many changed documents a full fetch is as cheap as a partial one. */
const MAX_PARTIAL = 500;

export interface FetchDeps {
  logger: Logger;
  sleep?: (ms: number) => Promise<void>;
  /** Snapshots the caller keeps between fetches (src/pipeline/builder.ts). */
  snapshots?: SnapshotMemory;
}

export interface FetchResult {
  snapshot: Snapshot;
  /** False when the master ref equals the cached snapshot's ref: no documents were downloaded. */
  changed: boolean;
  file: string;
  documentsFetched: number;
  /** HTTP requests sent, retries included. */
  requests: number;
}

const numberFormat = new Intl.NumberFormat("en-AU");

export async function fetchContent(options: FetchOptions, deps: FetchDeps): Promise<FetchResult> {
  const started = performance.now();
  const sleep = deps.sleep ?? realSleep;
  const endpoint = options.endpoint ?? `https://${options.repository}.cdn.prismic.io/api/v2`;
  const file = snapshotPath(options.cacheDir, options.repository);
  const retrying = createRetryingFetch({
    fetch: globalThis.fetch.bind(globalThis),
    sleep,
    logger: deps.logger,
  });
  const pinned = createPinnedFetch(retrying.fetch, endpoint);

  const context = {
    repository: options.repository,
    endpoint,
    hasAccessToken: Boolean(options.accessToken),
    statusOf: retrying.statusOf,
  };
  const downloaded = await download(options, endpoint, file, pinned, sleep, deps.logger, deps.snapshots).catch(
    (error: unknown) => {
      throw mapFetchError(error, context);
    },
  );
  if ("cached" in downloaded) {
    deps.logger.info("content", `unchanged at ref ${downloaded.cached.ref}`);
    return { snapshot: downloaded.cached, changed: false, file, documentsFetched: 0, requests: retrying.requests };
  }

  // Only now, with every page in hand and the content whole, does the previous snapshot get replaced (atomically).
  checkSiteContent(
    downloaded.snapshot,
    `Prismic repository "${options.repository}" at ref ${downloaded.snapshot.ref}`,
    SITE_SINGLETONS,
  );
  const snapshot = await writeAndRememberSnapshot(file, downloaded.snapshot, deps.snapshots);
  const took = formatMs(performance.now() - started);
  const count = snapshot.documents.length;
  deps.logger.info(
    "content",
    `${numberFormat.format(count)} documents at ref ${snapshot.ref} in ${took} (${retrying.requests} requests)`,
  );
  return { snapshot, changed: true, file, documentsFetched: count, requests: retrying.requests };
}

async function download(
  options: FetchOptions,
  endpoint: string,
  file: string,
  pinned: PinnedFetch,
  sleep: (ms: number) => Promise<void>,
  logger: Logger,
  snapshots: SnapshotMemory | undefined,
): Promise<{ cached: Snapshot } | { snapshot: Snapshot }> {
  const { createClient } = await import("@prismicio/client");
  const client = createClient(options.repository, {
    documentAPIEndpoint: endpoint,
    accessToken: options.accessToken || undefined,
    routes: options.routes,
    fetch: pinned.fetch,
  });
  // A build never follows a browser's preview cookie.
  client.disableAutoPreviews();

  const repository = await client.getRepository();
  checkRepositoryAnswer(repository, redactUrl(endpoint));
  const master = repository.refs?.find((r) => r.isMasterRef);
  if (!master)
    throw new NzfError("PRISMIC_INVALID_RESPONSE", `The Prismic repository root at ${endpoint} lists no master ref.`, {
      subject: endpoint,
    });
  const ref = master.ref;
  pinned.pin(ref);

  const cached = await readCachedSnapshot(file, logger, SITE_SINGLETONS, snapshots);
  if (cached && cached.ref === ref) return { cached };
  const languages = [...(repository.languages ?? [])]
    .sort((a, b) => Number(b.is_master) - Number(a.is_master))
    .map((l) => l.id);

  const named = [...new Set(options.changedIds ?? [])];
  if (cached && named.length > 0 && named.length <= MAX_PARTIAL) {
    const merged = await fetchChangedOnly(client, cached, named, ref, endpoint, sleep, logger);
    if (merged) return { snapshot: { format: 1, repository: options.repository, ref, languages, documents: merged } };
  }

  const documents: Snapshot["documents"] = [];
  const seen = new Set<string>();
  let totalPages: number | undefined;
  let totalResults: unknown;
  for (let page = 1; ; page++) {
    const response = await client.get({
      ref,
      lang: "*",
      pageSize: PAGE_SIZE,
      page,
      integrationFieldsRef: repository.integrationFieldsRef ?? undefined,
    });
    // Every page is checked as it arrives: nothing malformed reaches the snapshot.
    totalPages = checkSearchPage(response, {
      page,
      pageSize: PAGE_SIZE,
      totalPages,
      label: "the documents search",
      subject: redactUrl(endpoint),
    });
    totalResults ??= response.total_results_size;
    for (const document of response.results) {
      if (seen.has(document.id)) {
        throw new NzfError(
          "PRISMIC_MALFORMED_ANSWER",
          `The Prismic API sent document ${document.id} twice (again on page ${page} of the documents search).`,
          { subject: redactUrl(endpoint) },
        );
      }
      seen.add(document.id);
    }
    documents.push(...response.results);
    if (!response.next_page || page >= response.total_pages) break;
    await sleep(PAGE_PAUSE_MS);
  }
  if (documents.length === 0) {
    throw new NzfError(
      "PRISMIC_NO_DOCUMENTS",
      `No documents were returned by the Prismic repository "${options.repository}" at ref ${ref}.`,
      { subject: endpoint },
    );
  }
  if (typeof totalResults === "number" && totalResults !== documents.length) {
    throw new NzfError(
      "PRISMIC_MALFORMED_ANSWER",
      `The Prismic API said ${totalResults} documents but its ${totalPages} pages held ${documents.length}.`,
      { subject: redactUrl(endpoint) },
    );
  }
  return { snapshot: { format: 1, repository: options.repository, ref, languages, documents } };
}

type PrismicClient = ReturnType<typeof import("@prismicio/client").createClient>;

/**
 * A webhook's list of documents is a hint, never the truth: a webhook can name the wrong ids (a
 * release, a retried delivery, a hand-made trigger), and a snapshot marked with the new ref but
 * holding old documents would make every later fetch say "unchanged" over stale content. So besides
 * the named documents, every document published since the snapshot's newest publication (less a
 * margin for the API's clocks and its one-second dates) is downloaded, and the repository's count
 * must then add up (it catches unpublished documents the webhook did not name). Returns the merged
 * documents, or null when they do not add up or too many changed (then everything is fetched).
 */
async function fetchChangedOnly(
  client: PrismicClient,
  cached: Snapshot,
  named: string[],
  ref: string,
  endpoint: string,
  sleep: (ms: number) => Promise<void>,
  logger: Logger,
): Promise<Snapshot["documents"] | null> {
  const { filter } = await import("@prismicio/client");
  const fresh = new Map<string, Snapshot["documents"][number]>();
  const search = async (filters: string[], label: string): Promise<boolean> => {
    for (let page = 1; ; page++) {
      if (page > 1) await sleep(PAGE_PAUSE_MS);
      const response = await client.get({ ref, lang: "*", pageSize: PAGE_SIZE, page, filters });
      checkSearchPage(response, { page, pageSize: PAGE_SIZE, label, subject: redactUrl(endpoint) });
      if (response.total_results_size > MAX_PARTIAL) return false;
      for (const document of response.results) fresh.set(document.id, document);
      if (!response.next_page || page >= response.total_pages) return true;
    }
  };
  for (let start = 0; start < named.length; start += PAGE_SIZE) {
    if (start > 0) await sleep(PAGE_PAUSE_MS);
    const ids = named.slice(start, start + PAGE_SIZE);
    await search(
      [filter.in("document.id", ids)],
      `the search for changed documents ${start + 1}-${start + ids.length}`,
    );
  }
  const since = newestPublication(cached) - PUBLICATION_MARGIN_MS;
  const namedSet = new Set(named);
  if (
    !(await search(
      [filter.dateAfter("document.last_publication_date", since)],
      "the search for documents published since the snapshot",
    ))
  ) {
    logger.info("content", `more than ${MAX_PARTIAL} documents were published since the snapshot; fetching everything`);
    return null;
  }
  const counted = await client.get({ ref, lang: "*", pageSize: 1 });
  checkSearchPage(counted, { page: 1, pageSize: 1, label: "the count of all documents", subject: redactUrl(endpoint) });
  const total = counted.total_results_size;
  const merged = [...cached.documents.filter((d) => !namedSet.has(d.id) && !fresh.has(d.id)), ...fresh.values()];
  if (merged.length !== total || total === 0) {
    logger.info(
      "content",
      `the changed documents do not account for the new ref (${merged.length} ≠ ${total}); fetching everything`,
    );
    return null;
  }
  const unnamed = [...fresh.values()].filter((d) => !namedSet.has(d.id) && newerThan(cached, d)).length;
  const removed = named.filter((id) => !fresh.has(id)).length;
  logger.info(
    "content",
    `${fresh.size} changed document${fresh.size === 1 ? "" : "s"} fetched at ref ${ref}, ${removed} removed` +
      (unnamed > 0 ? ` (${unnamed} changed that the webhook did not name)` : ""),
  );
  return merged;
}

/** Prismic's dates have one-second precision and come from more than one server: re-read a little before the newest. */
const PUBLICATION_MARGIN_MS = 10 * 60_000;

/** The newest `last_publication_date` in the snapshot, in epoch ms (0 when none can be read). */
function newestPublication(snapshot: Snapshot): number {
  let newest = 0;
  for (const document of snapshot.documents) {
    const at = parsePrismicDate(document.last_publication_date);
    if (at > newest) newest = at;
  }
  return newest;
}

/** Prismic writes `2024-01-01T00:00:00+0000`; Date.parse wants the offset with a colon. */
function parsePrismicDate(value: string | null | undefined): number {
  if (typeof value !== "string") return 0;
  const at = Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
  return Number.isFinite(at) ? at : 0;
}

/** Whether `document` was published after the snapshot's copy of it, or is new (for the log). */
function newerThan(snapshot: Snapshot, document: Snapshot["documents"][number]): boolean {
  const old = snapshot.documents.find((d) => d.id === document.id);
  return !old || old.last_publication_date !== document.last_publication_date;
}

/**
 * The cached snapshot, or null when there is none, it cannot be read or it is incomplete: then we fetch afresh, and
 * a real file-system problem surfaces when the new snapshot is written.
 */
async function readCachedSnapshot(
  file: string,
  logger: Logger,
  requiredTypes: readonly string[],
  snapshots: SnapshotMemory | undefined,
): Promise<Snapshot | null> {
  try {
    const snapshot = await loadSnapshot(file, snapshots);
    // An incomplete snapshot (from before this check) is not a reason to skip the download.
    checkSiteContent(snapshot, `the snapshot at ${file}`, requiredTypes);
    return snapshot;
  } catch (error) {
    if (error instanceof NzfError && error.code === "SNAPSHOT_MISSING") return null;
    logger.warn(
      "content",
      `ignoring the unreadable snapshot at ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}
