/**
 * Page bodies kept between the builds of one process (watch mode, the webhook server), so a change
 * to what frames every page (the layout, the document head, the bundles it names) frames the bodies
 * rendered before instead of rendering every page's template again.
 *
 * A body is reused only when it would render the same now:
 * - for the same page entry (template, path, language, alternates);
 * - the body key matches: the sources the page's template is made of (the template bundle's
 *   inputs, without those only the frame or other page templates import:
 *   src/bundle/template-bundle.ts), the processed images and the site settings;
 * - every piece of content the body read (its recorded dependencies) has the version it had.
 * Rendering is a pure function of these, which the byte-identical build tests rely on as well.
 */
import { createHash } from "node:crypto";
import type { ContentState, Dependency } from "./dependencies.js";
import type { RenderedBody } from "./render-page.js";
import type { PageEntry } from "./pages.js";

interface Entry {
  key: string;
  /** The page entry it was rendered for (template, path, language, alternates): the body reads it. */
  page: string;
  versions: string;
  body: RenderedBody;
}

/** The version of each dependency in one content state. */
export function contentVersions(state: ContentState): (dep: string) => string {
  const byType = new Map<string, string>();
  const typeVersion = (type: string) => {
    let version = byType.get(type);
    if (version === undefined) {
      const hash = createHash("sha1");
      for (const [id, docType] of Object.entries(state.types))
        if (docType === type) hash.update(`${id}=${state.documents[id]}\n`);
      version = hash.digest("hex");
      byType.set(type, version);
    }
    return version;
  };
  return (dep) => {
    const kind = dep.slice(0, dep.indexOf(":"));
    const name = dep.slice(kind.length + 1);
    if (kind === "id") return state.documents[name] ?? "missing";
    if (kind === "list") return state.lists[dep] ?? "missing";
    if (kind === "type") return typeVersion(name);
    return `unknown ${dep as Dependency}`;
  };
}

export class BodyCache {
  private readonly keyOf: (page: PageEntry) => string;

  constructor(
    /** What the bodies of this build are made with (see above), for every page or by page. */
    key: string | ((page: PageEntry) => string),
    private readonly versionOf: (dep: string) => string,
    private readonly entries = new Map<string, Entry>(),
  ) {
    this.keyOf = typeof key === "string" ? () => key : key;
  }

  private versions(deps: string[]): string {
    return deps.map(this.versionOf).join("\n");
  }

  /** The page's earlier body, when nothing it was made from changed. */
  get(page: PageEntry): RenderedBody | undefined {
    const entry = this.entries.get(page.file);
    if (!entry || entry.key !== this.keyOf(page) || entry.page !== JSON.stringify(page)) return undefined;
    return entry.versions === this.versions(entry.body.deps) ? entry.body : undefined;
  }

  set(page: PageEntry, body: RenderedBody): void {
    // A body reused this build is already kept as it is (same key, same page, same versions).
    if (this.entries.get(page.file)?.body === body) return;
    this.entries.set(page.file, {
      key: this.keyOf(page),
      page: JSON.stringify(page),
      versions: this.versions(body.deps),
      body,
    });
  }

  /** Forgets the pages not in this build (deleted documents). */
  keepOnly(files: Set<string>): void {
    for (const file of this.entries.keys()) if (!files.has(file)) this.entries.delete(file);
  }
}

/**
 * The bodies a caller keeps between its builds, per output folder (src/pipeline/builder.ts). Bounded by the
 * pages of the sites built: about 1 KB to 30 KB per page. Clearing it makes the next build render
 * every page whole (the benchmark's full render).
 */
export type PageBodies = Map<string, Map<string, Entry>>;

export function bodyCacheFor(
  bodies: PageBodies,
  outDir: string,
  key: string | ((page: PageEntry) => string),
  versionOf: (dep: string) => string,
): BodyCache {
  let store = bodies.get(outDir);
  if (!store) bodies.set(outDir, (store = new Map()));
  return new BodyCache(key, versionOf, store);
}
