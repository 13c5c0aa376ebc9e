/**
 * Site-wide files, added to the new site after its pages and assets (src/publish/site-output.ts);
 * one identical to the published file is kept as it is:
 * - `_redirects` (Netlify/Cloudflare Pages format); each redirect also has an HTML page with a meta
 *   refresh (the "redirect" template), so other hosts work too;
 * - app icons and `manifest.webmanifest` (src/site-files/icons.ts, manifest.ts);
 * - `offline.html`, the page the service worker shows when offline (src/site-files/offline-page.ts);
 * - `sitemap.xml` and `robots.txt` (src/site-files/sitemap.ts);
 * - `_headers` with the Content-Security-Policy and security headers, and the same policy for
 *   CloudFront in the work folder (src/site-files/headers.ts, csp.ts; docs/deploy.md), with the other edge
 *   pieces: the CloudFront Function, the deploy's IAM policy, a CloudFormation template (src/deploy/edge-files.ts);
 * - `sw.js` last, because it precaches files written above (src/site-files/service-worker.ts).
 */
import { mkdir } from "node:fs/promises";
import { writeFileAtomic } from "../core/fs.js";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildConfig } from "../core/config.js";
import type { SiteContent } from "../render/content-plan.js";
import type { PageEntry } from "../render/pages.js";
import type { SiteAssets } from "../template-kit/types.js";
import { cachedIcons } from "../site-files/icons.js";
import { manifestJson, MANIFEST_URL } from "../site-files/manifest.js";
import { offlinePageFrom, OFFLINE_URL } from "../site-files/offline-page.js";
import { robotsTxt, sitemapXml } from "../site-files/sitemap.js";
import { contentSecurityPolicy, sha256Source } from "../site-files/csp.js";
import { pageFactsOf, type PageFacts } from "../site-files/page-facts.js";
import { cloudFrontPolicy, headerRules, headersFile } from "../site-files/headers.js";
import { generateServiceWorker, type ServiceWorkerMemory } from "../site-files/service-worker.js";
import { hashFile } from "../cache/file-hash.js";
import { PREVIEW_DIALOG_CSS } from "../preview/dialog-styles.js";
import type { SiteOutput } from "../publish/site-output.js";
import { writeEdgeFiles } from "../deploy/edge-files.js";

export interface SiteFilesInput {
  /** The new site: its pages and assets are in it already. */
  output: SiteOutput;
  pages: PageEntry[];
  config: BuildConfig;
  /** What the site files read from the content (src/render/content-plan.ts). */
  content: SiteContent;
  assets: SiteAssets;
  /** Public build configuration (auth, payments): adds their API origins to the CSP. */
  publicConfig?: Record<string, unknown>;
  /** Facts about each page's HTML by file, when known without reading it back. */
  pageFacts?: Record<string, PageFacts>;
  /** Service workers made by the caller's earlier builds (src/pipeline/builder.ts). */
  serviceWorkers?: ServiceWorkerMemory;
}

/**
 * A hash of this stage's own inputs that are not content, templates or bundles (the source logo,
 * the worker source, Workbox's version), for the build's "nothing changed" key.
 */
export async function siteFilesKey(root: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha1");
  // hashFile reads a file again only when its identity (inode, size, times) changed.
  for (const file of [
    "assets/logo.svg",
    "src/site-files/worker/sw-source.ts",
    "node_modules/workbox-precaching/package.json",
    "node_modules/workbox-build/package.json",
  ]) {
    hash.update(`${file}=${(await hashFile(join(root, file))) ?? "missing"}\n`);
  }
  return hash.digest("hex");
}

/**
 * The compiled nzf-build's identity, written by scripts/compile-cli.mjs beside the code (lib/). A
 * build's output depends on the tool's own code too (headers, CSP, sitemap, page shell): a new
 * version must not find "nothing changed". Null when running from source (vitest, tsx).
 */
export async function toolBuildId(): Promise<string | null> {
  return (await hashFile(fileURLToPath(new URL("../lib/build-id", import.meta.url)))) ?? null;
}

/**
 * Where the CloudFront response headers policies are written (outside dist/: they are not site
 * files): the site's, and with `account` the one for the account pages' behaviour.
 */
export function cloudFrontPolicyFile(config: BuildConfig, { account = false } = {}): string {
  return join(
    config.workDir,
    "deploy",
    account ? "cloudfront-response-headers-policy-account.json" : "cloudfront-response-headers-policy.json",
  );
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Islands that only some people use: their code is not precached for every donor. */
const NOT_PRECACHED_ISLANDS = ["account"];

/**
 * Browser code the service worker does not precache: the editor-only preview bundle, the account
 * island's own code (only donors with an account open /account), and chunks that are only loaded on
 * demand (Amplify, Stripe's loader). Every donor would otherwise download them when the worker
 * installs.
 */
function notPrecached(output: SiteOutput, assets: SiteFilesInput["assets"]): string[] {
  const strip = (url: string) => url.replace(/^\//, "");
  const precached = new Set<string>();
  const skipped = new Set<string>();
  for (const [name, asset] of Object.entries(assets.islands)) {
    const target = NOT_PRECACHED_ISLANDS.includes(name) ? skipped : precached;
    for (const url of [asset.src, ...asset.imports]) target.add(strip(url));
  }
  for (const asset of Object.values(assets.scripts))
    for (const url of [asset.src, ...asset.imports]) precached.add(strip(url));
  // A chunk shared with a precached island (React) stays precached.
  const onDemand = output.files().filter((file) => /^_islands\/.*\.js$/.test(file) && !precached.has(file));
  return [...new Set([...onDemand, ...[...skipped].filter((f) => !precached.has(f))])].sort();
}

export async function writeSiteFiles(input: SiteFilesInput): Promise<void> {
  const { output, config } = input;
  const write = (url: string, body: string | Buffer) => output.put(url.replace(/^\//, ""), body, { unlessSame: true });

  const redirects = input.pages
    .filter((p) => p.redirectTo)
    .map((p) => `${p.path} ${p.redirectTo} 301\n${p.path.replace(/\/$/, "")} ${p.redirectTo} 301`);
  await write("_redirects", redirects.join("\n") + "\n");

  const global = input.content.global;
  const siteName = text(global?.site_name) || "National Zakat Foundation";
  for (const icon of await cachedIcons(join(config.root, "assets/logo.svg"), config.workDir))
    await write(icon.url, icon.bytes);
  await write(
    MANIFEST_URL,
    manifestJson({ name: siteName, description: text(global?.default_meta_description) || undefined }),
  );

  const notFound = input.pages.find((p) => p.template === "404");
  const offlineHtml = notFound ? offlinePageFrom((await output.read(notFound.file)).toString("utf8"), siteName) : null;
  if (offlineHtml !== null) await write(OFFLINE_URL, offlineHtml);

  // What the sitemap and the CSP need from every page: from this build's render, from the last
  // build's record for pages kept, and read back only when neither has it.
  const htmlPages = input.pages.filter((p) => p.file.endsWith(".html"));
  const facts = await Promise.all(
    htmlPages.map(async (p) => input.pageFacts?.[p.file] ?? pageFactsOf((await output.read(p.file)).toString("utf8"))),
  );
  const noindex = new Set(htmlPages.filter((_, i) => facts[i]!.noindex).map((p) => p.path));
  const lastmod = (page: PageEntry) => {
    const date = page.documentId ? input.content.lastPublished[page.documentId] : undefined;
    return date ? date.slice(0, 10) : undefined;
  };
  await write(
    "/sitemap.xml",
    sitemapXml(
      config.siteUrl,
      input.pages.map((page) => ({ page, noindex: noindex.has(page.path), lastmod: lastmod(page) })),
    ),
  );
  await write("/robots.txt", robotsTxt(config.siteUrl));

  // Hash whatever inline code the HTML has (JSON data blocks excluded), plus the preview dialogs'
  // <style>, which the preview island renders in the browser.
  if (offlineHtml !== null) facts.push(pageFactsOf(offlineHtml));
  const inline = {
    scripts: [...new Set(facts.flatMap((f) => f.scripts))].sort(),
    styles: [...new Set(facts.flatMap((f) => f.styles))].sort(),
  };
  const csp = contentSecurityPolicy({
    publicConfig: input.publicConfig,
    scriptHashes: inline.scripts,
    styleHashes: [...inline.styles, sha256Source(PREVIEW_DIALOG_CSS)],
    // The editor preview fetches drafts from the configured endpoint, in the browser.
    previewEndpoint: config.endpoint,
  });
  await write("/_headers", headersFile(headerRules(csp)));
  await mkdir(join(config.workDir, "deploy"), { recursive: true });
  for (const account of [false, true]) {
    await writeFileAtomic(
      cloudFrontPolicyFile(config, { account }),
      JSON.stringify(cloudFrontPolicy(csp, { account }), null, 2) + "\n",
    );
  }
  await writeEdgeFiles(join(config.workDir, "deploy"), csp);

  const worker = await generateServiceWorker({
    root: config.root,
    workDir: config.workDir,
    files: output.files(),
    pathOf: (file) => output.pathOf(file),
    ignore: notPrecached(output, input.assets),
    memory: input.serviceWorkers,
  });
  await write("/sw.js", worker.text);
}
