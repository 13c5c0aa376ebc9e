/**
 * Site-wide files written after the pages and assets are in the staging folder: the redirect list
 * for static hosts that read one (`_redirects`, Netlify/Cloudflare Pages format). Each redirect
 * also has an HTML page with a meta refresh (the "redirect" template), so other hosts work too.
 * Later stages (sitemap, robots.txt, manifest, service worker, headers) hang off this function.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuildConfig } from "../core/config.js";
import type { ContentGraph } from "../content/graph.js";
import type { PageEntry } from "./pages.js";
import type { RenderedPage } from "./render-stage.js";
import type { ImageLookup, SiteAssets } from "./types.js";

export interface SiteFilesInput {
  /** The staging folder: everything else is already in it. */
  siteDir: string;
  pages: PageEntry[];
  rendered: RenderedPage[];
  config: BuildConfig;
  graph: ContentGraph;
  images: ImageLookup;
  assets: SiteAssets;
}

export async function writeSiteFiles(input: SiteFilesInput): Promise<void> {
  const redirects = input.pages
    .filter((p) => p.redirectTo)
    .map((p) => `${p.path} ${p.redirectTo} 301\n${p.path.replace(/\/$/, "")} ${p.redirectTo} 301`);
  await writeFile(join(input.siteDir, "_redirects"), redirects.join("\n") + "\n");
}
