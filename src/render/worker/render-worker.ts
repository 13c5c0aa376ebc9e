/**
 * A render worker (src/render/render-service.ts drives it; the messages are typed in ./messages.ts).
 * It lives as long as the process, so the webhook server and watch mode keep warm workers: a cold
 * V8 renders the first thousand pages about twice as slowly as a warm one. Each build first sends the worker its inputs; the worker reads the snapshot
 * file again only when it changed (by inode, size and modification time, checked before and after
 * reading, so it never renders other content than the build's own) and imports the templates again
 * only when their compiled file changed. One worker may also plan the build from the snapshot it
 * read (src/render/content-plan.ts), so the build's thread need not parse it too.
 */
import { parentPort } from "node:worker_threads";
import { readSnapshot, type Snapshot } from "../../content/snapshot.js";
import { readSnapshotOnDemand } from "../../content/snapshot-on-demand.js";
import { identityOf } from "../../core/fs.js";
import { createContentGraph, type ContentGraph } from "../../content/graph.js";
import { createImageLookup } from "../../images/image-lookup.js";
import { createPageRenderer, htmlOf, renderFailureOf, type PageRenderer } from "../render-page.js";
import { findAllSecrets } from "../../publish/secret-scan.js";
import { documentFactsCollector, planContent, type ContentPlan, type DocumentFacts } from "../content-plan.js";
import { documentHashesKept } from "../dependencies.js";
import {
  keepDocumentFacts,
  keepFound,
  keepSnapshotIndex,
  keptDocumentFacts,
  keptFound,
  readIndexedSnapshot,
} from "../snapshot-index.js";
import type { TemplateModule } from "../../bundle/template-bundle.js";
import { loadCompiledModule } from "../../bundle/code-cache.js";
import { NzfError } from "../../core/coded-error.js";
import type { FromWorker, ToWorker, WorkerInit } from "./messages.js";
import { createPageWriter, type PageWriter } from "./page-writer.js";

let renderer: PageRenderer | null = null;
let writer: PageWriter | null = null;

/**
 * Keeps the last value made, by key: made once whether a warm-up or a build asks first. A failure is
 * not kept, so the next prepare makes it again and reports it.
 */
function lastByKey<T>(): (key: string, make: () => Promise<T>) => Promise<T> {
  let held: { key: string; value: Promise<T> } | null = null;
  return (key, make) => {
    if (held?.key !== key) {
      const value = make();
      held = { key, value };
      value.catch(() => {
        if (held?.value === value) held = null;
      });
    }
    return held.value;
  };
}

interface Content {
  snapshot: Snapshot;
  graph: ContentGraph;
  /** Whether the snapshot was read through its index (its large fields parsed when read). */
  indexed?: boolean;
  /** Set when the snapshot was read on demand: what the plan needs from each document whole. */
  facts?: DocumentFacts;
}

/** The snapshot and its graph, by snapshot identity: read ahead of the render when the build warms the worker. */
const contentBy = lastByKey<Content>();
function readContent(origin: WorkerInit["snapshot"]): Promise<Content> {
  return contentBy(`${origin.identity}|${origin.onDemand === true}|${origin.index?.file ?? ""}`, async () => {
    const indexed = origin.index ? readIndexedSnapshot(origin.index.file, origin.file, origin.identity) : null;
    if (indexed)
      return { snapshot: indexed, graph: createContentGraph(indexed.documents, indexed.languages), indexed: true };
    const before = await identityOf(origin.file);
    // A layout snapshotText did not write is read whole (readSnapshot reports what is wrong with it).
    let collector = documentFactsCollector();
    const onDemand = origin.onDemand ? await readSnapshotOnDemand(origin.file, collector.visit) : null;
    if (!onDemand) collector = documentFactsCollector();
    const snapshot: Snapshot = onDemand ?? (await readSnapshot(origin.file));
    const after = await identityOf(origin.file);
    if (before !== origin.identity || after !== origin.identity)
      throw new Error(`${origin.file} changed since the build read it`);
    const graph = createContentGraph(snapshot.documents, snapshot.languages);
    return onDemand ? { snapshot, graph, facts: collector.facts } : { snapshot, graph };
  });
}

/** This compiled worker: what its kept facts were found by (its file name changes with its sources). */
const FINDER = import.meta.url.slice(import.meta.url.lastIndexOf("/") + 1);

/** An answer to the build, and what to keep for the next process once the answer is on its way. */
interface Answer<T> {
  value: T;
  keep(): void;
}

const keepNothing = () => undefined;

/**
 * The documents' facts: collected while an on-demand snapshot was read, kept by an earlier process
 * for this snapshot, or found now (and then kept, for a snapshot with an index).
 */
async function documentFacts(origin: WorkerInit["snapshot"]): Promise<Answer<DocumentFacts>> {
  const { index } = origin;
  // Kept ones need no content read: answered before this thread reads the snapshot.
  const kept = index ? keptDocumentFacts(index.facts, origin.identity, FINDER) : null;
  if (kept) return { value: kept, keep: keepNothing };
  const content = await readContent(origin);
  if (content.facts) return { value: content.facts, keep: keepNothing };
  const collector = documentFactsCollector();
  for (const doc of content.snapshot.documents) collector.visit(doc);
  const keep = () => index && keepDocumentFacts(index.facts, origin.identity, FINDER, collector.facts);
  return { value: collector.facts, keep };
}

/**
 * The build's plan of the content this worker has read (src/render/content-plan.ts), or the plan this
 * worker made of the same snapshot in an earlier process.
 */
async function plan(request: Extract<ToWorker, { type: "plan" }>): Promise<Answer<FromWorker>> {
  const origin = request.snapshot;
  const { index } = origin;
  const finder = `${FINDER}|facts:${request.withFacts}`;
  const kept = index ? keptFound<ContentPlan>(index.plan, origin.identity, finder) : null;
  if (kept) return { value: { type: "planned", plan: kept }, keep: keepNothing };
  const content = await readContent(origin);
  const { snapshot, graph, indexed } = content;
  // Without facts: another worker collects them (collectFacts) and the build's thread adds them.
  const facts = request.withFacts ? await documentFacts(origin) : null;
  const known = facts?.value ?? { priceErrors: [], images: [], problems: [] };
  const planned = await planContent(snapshot, graph, origin, request.workDir, known);
  // The document hashes are kept in the background; a worker may not outlive the build to finish that.
  await documentHashesKept();
  const keep = () => {
    facts?.keep();
    if (!index) return;
    // A plan that saw a price refused threw instead: none is kept.
    keepFound(index.plan, origin.identity, finder, planned);
    if (!indexed) keepSnapshotIndex(index.file, origin.file, origin.identity, snapshot);
  };
  return { value: { type: "planned", plan: planned }, keep };
}

/** The documents' facts for a plan another worker makes at the same time (planInWorker). */
async function collectFacts(request: Extract<ToWorker, { type: "facts" }>): Promise<Answer<FromWorker>> {
  const facts = await documentFacts(request.snapshot);
  const { images, problems, priceErrors } = facts.value;
  return { value: { type: "facts", images, problems, priceErrors: priceErrors.length }, keep: facts.keep };
}

/** The templates module, by file. */
const templatesBy = lastByKey<TemplateModule>();
function importTemplates(file: string): Promise<TemplateModule> {
  return templatesBy(file, async () => {
    const loaded = await loadCompiledModule<TemplateModule>(file);
    keepCodeCache = loaded.keep;
    pagesSinceLoaded = 0;
    return loaded.exports;
  });
}

/**
 * Keeps V8's code of the templates for the next process once this thread has rendered this many
 * pages: by then the pages of every template have compiled what they call (src/bundle/code-cache.ts).
 */
const KEEP_CODE_AFTER_PAGES = 256;
let keepCodeCache: () => void = () => undefined;
let pagesSinceLoaded = 0;

async function prepare(init: WorkerInit): Promise<void> {
  renderer = null;
  writer = init.writeTo ? createPageWriter(init.writeTo) : null;
  const [{ graph }, module] = await Promise.all([readContent(init.snapshot), importTemplates(init.templateFile)]);
  renderer = createPageRenderer({
    module,
    graph,
    images: createImageLookup(new Map(init.manifests)),
    site: init.site,
    assets: init.assets,
  });
}

async function render(request: Extract<ToWorker, { type: "render" }>): Promise<FromWorker> {
  const results: Extract<FromWorker, { type: "rendered" }>["results"] = [];
  for (const page of request.pages) {
    const started = performance.now();
    try {
      const render = renderer!.render(page);
      const ms = performance.now() - started;
      const html = htmlOf(render);
      // Scanned here, on the worker's core, rather than in the build's thread.
      const secrets = await findAllSecrets(html);
      if (writer?.write(page.file, html)) {
        const { before, after, body, ...written } = render;
        results.push({ ok: true, written, secrets, ms });
      } else results.push({ ok: true, render, secrets, ms });
    } catch (error) {
      // Mapped here, where the stack is: the template file and line (src/render/template-errors.ts).
      results.push({ ok: false, failure: renderFailureOf(error), ms: performance.now() - started });
    }
  }
  pagesSinceLoaded += request.pages.length;
  if (pagesSinceLoaded >= KEEP_CODE_AFTER_PAGES) keepCodeCache();
  return { type: "rendered", batch: request.batch, results };
}

const port = parentPort!;

/**
 * Answers a plan or facts request, then keeps what the next process may reuse (the snapshot's index,
 * the documents' facts) while the build goes on. Not kept (a full disk, say): the next process
 * parses and finds them again.
 */
function answerAndKeep(work: Promise<Answer<FromWorker>>): Promise<void> {
  return reply(
    work.then((answer) => answer.value),
    "plan-failed",
  )
    .then(() => work)
    .then(({ keep }) => keep())
    .catch(() => undefined);
}

function answerTo(request: Extract<ToWorker, { type: "plan" | "facts" }>): Promise<Answer<FromWorker>> {
  return request.type === "facts" ? collectFacts(request) : plan(request);
}

/** Posts what `work` answers, or its failure as a message of type `failure`; settles once posted. */
function reply(work: Promise<FromWorker>, failure: "plan-failed" | "fatal"): Promise<void> {
  return work.then(
    (answer) => port.postMessage(answer),
    (error: unknown) =>
      port.postMessage({
        type: failure,
        // A coded error keeps its code (a content problem the build's thread then reports itself).
        code: error instanceof NzfError ? error.code : "RENDER_WORKER_FAILED",
        message: error instanceof Error ? error.message : String(error),
      } satisfies FromWorker),
  );
}

port.on("message", (message: ToWorker) => {
  // The scan's preset half is a promise, settled in microtasks (no I/O): no other message is handled meanwhile.
  if (message.type === "render") return void render(message).then((answer) => port.postMessage(answer));
  if (message.type === "facts" || message.type === "plan") return void answerAndKeep(answerTo(message));
  if (message.type === "warm") {
    // The build's first request is answered first (from what an earlier process kept, when it
    // can), then the content is read; a failure is the render's to report (prepare reads again).
    const answered = message.first ? answerAndKeep(answerTo(message.first)) : Promise.resolve();
    answered.then(() => readContent(message.snapshot)).catch(() => undefined);
    return;
  }
  reply(
    prepare(message.init).then(() => ({ type: "ready" })),
    "fatal",
  );
});
