/**
 * The HTML document around a rendered page: `<head>` metadata (title, description, canonical, Open
 * Graph, Twitter, hreflang alternates, JSON-LD), the stylesheet, and the scripts of exactly the
 * islands the page used, started by one small script once the page has painted. Built as a
 * string: the head depends on what the body rendered.
 */
import { canonicalUrl, MASTER_LANG } from "../src/content/routes.js";
import type { ImagePreload, PageMeta, RenderInput } from "../src/template-kit/types.js";
import { GTM_ID } from "../src/client/site/tag-manager.js";
import { htmlLang } from "./i18n/index.js";
import { dirOf } from "./i18n/html-lang.js";

/**
 * The script every framed page runs (src/client/entries/page-scripts.ts): it fades pictures in, runs
 * the site-wide scripts bundled into it, and starts the page's islands once the page has painted.
 */
const PAGE_SCRIPTS = "page-scripts";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const esc = (text: string) => (/[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (c) => ENTITIES[c]!) : text);

export interface DocumentParts {
  input: RenderInput;
  meta: PageMeta;
  siteName: string;
  defaultDescription: string;
  defaultImage?: PageMeta["image"];
  body: string;
  /** The body's main image, fetched ahead of everything but the stylesheet. */
  preload?: ImagePreload;
  islands: string[];
}

function jsonLdScript(value: object): string {
  return `<script type="application/ld+json">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`;
}

/** The tag manager's no-JavaScript fallback, as the Gatsby plugin rendered it. */
function gtmNoscript(): string {
  return `<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=${GTM_ID}" title="Google Tag Manager" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>\n`;
}

/** The modules a page's islands (and scripts of its own) need, and the chunks they import, in a stable order. */
function pageModules(
  assets: RenderInput["assets"],
  islands: string[],
  pageScripts: string[],
): { modules: string[]; chunks: string[] } {
  const needed = [
    ...islands.map((name) => ({
      asset: assets.islands[name],
      missing: `The page uses the island "${name}" but src/client/islands/${name}.tsx was not bundled`,
    })),
    ...pageScripts.map((name) => ({
      asset: assets.scripts[name],
      missing: `The page loads the script "${name}" but src/client/entries/${name}.ts was not bundled`,
    })),
  ];
  const modules = new Set<string>();
  const chunks = new Set<string>();
  for (const { asset, missing } of needed) {
    if (!asset) throw new Error(missing);
    modules.add(asset.src);
    asset.imports.forEach((i) => chunks.add(i));
  }
  return { modules: [...modules], chunks: [...chunks].sort() };
}

export function renderDocument(parts: DocumentParts): string {
  const { input, meta, body, islands } = parts;
  const { page, site, assets } = input;
  const lang = htmlLang(page.lang);
  const dir = dirOf(page.lang);
  // "Page | Site", unless the page's own title names the site already (the home page's SEO title does).
  const title = !meta.title
    ? parts.siteName
    : meta.title.toLowerCase().includes(parts.siteName.toLowerCase())
      ? meta.title
      : `${meta.title} | ${parts.siteName}`;
  const description = meta.description || parts.defaultDescription;
  const canonical = canonicalUrl(site.siteUrl, page.path);
  const image = meta.image ?? parts.defaultImage;
  const head: string[] = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(title)}</title>`,
  ];
  // The main image first, ahead of the stylesheet, icons and scripts, which a slow connection
  // otherwise fetched alongside it (see ImagePreloadContext in templates/components/picture.tsx).
  const mainImage = parts.preload;
  if (mainImage)
    head.push(
      `<link rel="preload" as="image" imagesrcset="${esc(mainImage.srcset)}" imagesizes="${esc(mainImage.sizes)}"${mainImage.type ? ` type="${esc(mainImage.type)}"` : ""} fetchpriority="high">`,
    );
  if (description) head.push(`<meta name="description" content="${esc(description)}">`);
  if (page.redirectTo)
    head.push(
      `<meta http-equiv="refresh" content="0; url=${esc(page.redirectTo)}">`,
      `<link rel="canonical" href="${esc(canonicalUrl(site.siteUrl, page.redirectTo))}">`,
    );
  if (meta.noindex || !page.indexable) head.push(`<meta name="robots" content="noindex">`);
  else if (!page.redirectTo) head.push(`<link rel="canonical" href="${esc(canonical)}">`);
  for (const alt of page.alternates.length > 1 ? page.alternates : []) {
    head.push(`<link rel="alternate" hreflang="${esc(alt.lang)}" href="${esc(canonicalUrl(site.siteUrl, alt.path))}">`);
    if (alt.lang === MASTER_LANG)
      head.push(`<link rel="alternate" hreflang="x-default" href="${esc(canonicalUrl(site.siteUrl, alt.path))}">`);
  }
  head.push(
    `<meta property="og:site_name" content="${esc(parts.siteName)}">`,
    `<meta property="og:title" content="${esc(meta.title || parts.siteName)}">`,
    `<meta property="og:type" content="${meta.type ?? "website"}">`,
    `<meta property="og:url" content="${esc(canonical)}">`,
    `<meta property="og:locale" content="${esc(lang.replace("-", "_"))}">`,
  );
  if (description) head.push(`<meta property="og:description" content="${esc(description)}">`);
  if (image?.url) {
    const imageUrl = image.url.startsWith("/") ? site.siteUrl.replace(/\/$/, "") + image.url : image.url;
    head.push(`<meta property="og:image" content="${esc(imageUrl)}">`);
    if (image.width) head.push(`<meta property="og:image:width" content="${image.width}">`);
    if (image.height) head.push(`<meta property="og:image:height" content="${image.height}">`);
    if (image.alt) head.push(`<meta property="og:image:alt" content="${esc(image.alt)}">`);
  }
  head.push(`<meta name="twitter:card" content="${image?.url ? "summary_large_image" : "summary"}">`);
  head.push(`<meta name="theme-color" content="#663399">`);
  // Fixed names (src/site-files/icons.ts): browsers and crawlers ask for these paths by name.
  head.push(
    `<link rel="manifest" href="/manifest.webmanifest">`,
    `<link rel="icon" href="/favicon.ico" sizes="32x32">`,
    `<link rel="apple-touch-icon" href="/apple-touch-icon.png">`,
  );
  for (const css of assets.css) head.push(`<link rel="stylesheet" href="${esc(css)}">`);

  const { modules, chunks } = pageModules(assets, islands, meta.scripts ?? []);
  // Redirect pages leave at once: no tag manager page view, no worker registration for them.
  const siteScripts = !page.redirectTo;
  if (modules.length || siteScripts) {
    const loader = assets.scripts[PAGE_SCRIPTS];
    if (!loader)
      throw new Error(
        `The page needs scripts but src/client/entries/${PAGE_SCRIPTS}.ts, which runs and starts them, was not bundled`,
      );
    // The one script requested while the page loads; it starts the others after the first paint.
    // Low priority, so the stylesheet and the main image are fetched ahead of it on a slow connection.
    const attributes = [
      siteScripts ? " data-site-scripts" : "",
      modules.length ? ` data-page-modules="${esc(modules.join(" "))}"` : "",
      chunks.length ? ` data-page-chunks="${esc(chunks.join(" "))}"` : "",
    ];
    head.push(`<script type="module" src="${esc(loader.src)}" fetchpriority="low"${attributes.join("")}></script>`);
  }
  for (const ld of meta.jsonLd ?? []) head.push(jsonLdScript(ld));

  return `<!doctype html>\n<html lang="${esc(lang)}" dir="${dir}">\n<head>\n${head.join("\n")}\n</head>\n<body>\n${page.redirectTo ? "" : gtmNoscript()}${body}\n</body>\n</html>\n`;
}
