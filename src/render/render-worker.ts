/**
 * A render worker (src/render/render-pool.ts): it reads the same snapshot file the build loaded,
 * imports the same compiled templates, and renders the batches of pages it is sent. The snapshot's
 * identity (inode, size, modification time) is checked before and after reading, so a worker never
 * renders other content than the build's own.
 */
import { parentPort, workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import { identityOf, readSnapshot } from "../content/snapshot.js";
import { createContentGraph } from "../content/graph.js";
import { createImageLookup } from "../images/image-lookup.js";
import { createPageRenderer, type PageRender } from "./render-page.js";
import type { TemplateModule } from "./template-bundle.js";
import type { WorkerInit, WorkerReply, WorkerRequest } from "./render-pool.js";

async function start(init: WorkerInit): Promise<(request: WorkerRequest) => WorkerReply> {
  const [module, snapshot] = await Promise.all([
    import(pathToFileURL(init.templateFile).href) as Promise<TemplateModule>,
    (async () => {
      const before = await identityOf(init.snapshot.file);
      const read = await readSnapshot(init.snapshot.file);
      const after = await identityOf(init.snapshot.file);
      if (before !== init.snapshot.identity || after !== init.snapshot.identity) throw new Error(`${init.snapshot.file} changed since the build read it`);
      return read;
    })(),
  ]);
  const renderer = createPageRenderer({
    module,
    graph: createContentGraph(snapshot.documents, snapshot.languages),
    images: createImageLookup(new Map(init.manifests)),
    site: init.site,
    assets: init.assets,
  });
  return (request) => {
    const results: WorkerReply["results"] = [];
    for (const page of request.pages) {
      const started = performance.now();
      try {
        const render: PageRender = renderer.render(page);
        results.push({ ok: true, render, ms: performance.now() - started });
      } catch (error) {
        results.push({ ok: false, message: error instanceof Error ? error.message : String(error), ms: performance.now() - started });
      }
    }
    return { batch: request.batch, results };
  };
}

const port = parentPort!;
start(workerData as WorkerInit).then(
  (handle) => {
    port.on("message", (request: WorkerRequest) => port.postMessage(handle(request)));
    port.postMessage({ ready: true });
  },
  (error: unknown) => port.postMessage({ fatal: error instanceof Error ? error.message : String(error) }),
);
