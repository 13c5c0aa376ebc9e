/**
 * A render worker (src/render/render-pool.ts). It lives as long as the process, so the webhook
 * server and watch mode keep warm workers: a cold V8 renders the first thousand pages about twice as
 * slowly as a warm one. Each build first sends the worker its inputs; the worker reads the snapshot
 * file again only when it changed (by inode, size and modification time, checked before and after
 * reading, so it never renders other content than the build's own) and imports the templates again
 * only when their compiled file changed.
 */
import { parentPort } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import { readSnapshot, type Snapshot } from "../content/snapshot.js";
import { identityOf } from "../core/fs.js";
import { createContentGraph, type ContentGraph } from "../content/graph.js";
import { createImageLookup } from "../images/image-lookup.js";
import { createPageRenderer, type PageRenderer } from "./render-page.js";
import type { TemplateModule } from "./template-bundle.js";
import type { ToWorker, FromWorker, WorkerInit } from "./render-pool.js";

let content: { identity: string; graph: ContentGraph } | null = null;
let templates: { file: string; module: TemplateModule } | null = null;
let renderer: PageRenderer | null = null;

async function readContent(init: WorkerInit): Promise<ContentGraph> {
  if (content?.identity === init.snapshot.identity) return content.graph;
  content = null;
  const before = await identityOf(init.snapshot.file);
  const snapshot: Snapshot = await readSnapshot(init.snapshot.file);
  const after = await identityOf(init.snapshot.file);
  if (before !== init.snapshot.identity || after !== init.snapshot.identity) throw new Error(`${init.snapshot.file} changed since the build read it`);
  content = { identity: init.snapshot.identity, graph: createContentGraph(snapshot.documents, snapshot.languages) };
  return content.graph;
}

async function importTemplates(file: string): Promise<TemplateModule> {
  if (templates?.file !== file) templates = { file, module: (await import(pathToFileURL(file).href)) as TemplateModule };
  return templates.module;
}

async function prepare(init: WorkerInit): Promise<void> {
  renderer = null;
  const [graph, module] = await Promise.all([readContent(init), importTemplates(init.templateFile)]);
  renderer = createPageRenderer({ module, graph, images: createImageLookup(new Map(init.manifests)), site: init.site, assets: init.assets, memoizeFrames: init.memoizeFrames });
}

function render(request: Extract<ToWorker, { type: "render" }>): FromWorker {
  const results: Extract<FromWorker, { type: "rendered" }>["results"] = [];
  for (const page of request.pages) {
    const started = performance.now();
    try {
      results.push({ ok: true, render: renderer!.render(page), ms: performance.now() - started });
    } catch (error) {
      results.push({ ok: false, message: error instanceof Error ? error.message : String(error), ms: performance.now() - started });
    }
  }
  return { type: "rendered", batch: request.batch, results };
}

const port = parentPort!;
port.on("message", (message: ToWorker) => {
  if (message.type === "render") return port.postMessage(render(message));
  prepare(message.init).then(
    () => port.postMessage({ type: "ready" } satisfies FromWorker),
    (error: unknown) => port.postMessage({ type: "fatal", message: error instanceof Error ? error.message : String(error) } satisfies FromWorker),
  );
});
