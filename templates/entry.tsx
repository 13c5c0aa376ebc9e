/**
 * The template bundle's entry: the render stage (src/render/render-stage.ts) bundles this file with
 * esbuild and calls `renderPage` for every page. Everything that touches React lives on this side,
 * so React is loaded once, in production mode, by the bundle.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { PageBody, PageFrame, RenderInput, RenderOutput, TemplateContext } from "../src/template-kit/types.js";
import { createIslandCollector, IslandCollectorContext } from "../src/template-kit/islands.js";
import type { Template } from "./template.js";
import type { TemplateName } from "../src/content/page-types.js";
import { renderDocument } from "./document.js";
import { Layout, layoutVariant } from "./components/layout.js";
import { dataOf, image, str } from "./components/fields.js";
import { ImagePreloadContext } from "./components/picture.js";
import { home } from "./pages/home.js";
import { about, account, apply, contact, guides, landing, learn, privacy } from "./pages/content-pages.js";
import { blogArticle, caseStudy, cases, partner, program, programs } from "./pages/collections.js";
import { faq } from "./pages/faq.js";
import { pay, thankYou } from "./pages/giving.js";
import { calculate } from "./pages/calculate.js";
import { donation } from "./pages/donation.js";
import {
  notFound,
  preview,
  ramadanCalendars,
  redirect,
  rightToZakatDraft,
  serverError,
  styleguide,
} from "./pages/static-pages.js";

/**
 * Every template by the name the page plan gives it (src/content/page-types.ts): a name the
 * registry has and this table lacks, or the other way round, is a type error.
 */
export const TEMPLATES: Record<TemplateName, Template> = {
  home,
  about,
  account,
  apply,
  contact,
  guides,
  landing,
  learn,
  privacy,
  "blog-article": blogArticle,
  case: caseStudy,
  cases,
  partner,
  program,
  programs,
  faq,
  calculate,
  donation,
  pay,
  "thank-you": thankYou,
  "404": notFound,
  "500": serverError,
  preview,
  "ramadan-calendars": ramadanCalendars,
  "right-to-zakat-draft": rightToZakatDraft,
  styleguide,
  redirect,
};

/** Stands where the page's body goes while the frame is rendered: text is escaped, so no content can forge it. */
const BODY_SLOT = "<nzf-body-slot></nzf-body-slot>";

function contextOf(input: RenderInput): { template: Template; ctx: TemplateContext } {
  const name = input.page.template;
  const template = Object.hasOwn(TEMPLATES, name) ? TEMPLATES[name as TemplateName] : undefined;
  if (!template) throw new Error(`No template named "${input.page.template}" in templates/entry.tsx`);
  const doc = input.page.documentId ? input.graph.byId(input.page.documentId) : undefined;
  const global = input.graph.single("global", input.page.lang);
  return {
    template,
    ctx: {
      page: input.page,
      doc,
      global,
      graph: input.graph,
      images: input.images,
      site: input.site,
      link: input.graph.resolveLink,
    },
  };
}

/**
 * What the page's own template renders: its main content and its metadata. It does not depend on
 * the layout or the document head, so the render stage may reuse it when only those changed
 * (src/render/body-cache.ts).
 */
export function renderBody(input: RenderInput): PageBody {
  const { template, ctx } = contextOf(input);
  const collector = createIslandCollector();
  const preload: { first?: PageBody["preload"] } = {};
  const html = renderToString(
    <IslandCollectorContext.Provider value={collector}>
      <ImagePreloadContext.Provider value={preload}>
        <template.Body ctx={ctx} />
      </ImagePreloadContext.Provider>
    </IslandCollectorContext.Provider>,
  );
  return {
    html,
    islands: collector.names,
    islandCount: collector.count,
    meta: template.meta(ctx),
    ...(preload.first ? { preload: preload.first } : {}),
  };
}

/** The page around its body: the layout (skip link, header, footer) and the HTML document with its head. */
export function renderFrame(input: RenderInput, body: PageBody): PageFrame {
  const { template, ctx } = contextOf(input);
  // The layout's own islands, if it ever has any, are numbered after the body's.
  const collector = { names: [...body.islands], count: body.islandCount };
  const renderShell = () =>
    renderToString(
      <IslandCollectorContext.Provider value={collector}>
        <Layout ctx={ctx}>{createElement("nzf-body-slot")}</Layout>
      </IslandCollectorContext.Provider>,
    );
  let shell = BODY_SLOT;
  if (!template.bare) {
    // The same layout for every page of a variant, rendered once per build. A layout with islands
    // numbers them after each page's own, so it is not shared: it renders for every page.
    let fresh: string | undefined;
    const shared = input.memo?.(`layout|${layoutVariant(ctx, input.memo)}`, () => {
      fresh = renderShell();
      return collector.count === body.islandCount ? fresh : false;
    });
    shell = typeof shared === "string" ? shared : (fresh ?? renderShell());
  }
  const g = dataOf(ctx.global);
  const defaultImage = image(g, "default_social_image");
  const processedDefault = defaultImage ? input.images.get(defaultImage.url, "constrained") : undefined;
  const html = renderDocument({
    input,
    meta: body.meta,
    body: shell,
    preload: body.preload,
    islands: collector.names,
    siteName: str(g, "site_name") || "National Zakat Foundation",
    defaultDescription: str(g, "default_meta_description"),
    defaultImage:
      defaultImage && processedDefault !== null
        ? {
            url: processedDefault?.src ?? defaultImage.url,
            width: processedDefault?.width ?? defaultImage.width,
            height: processedDefault?.height ?? defaultImage.height,
            alt: defaultImage.alt,
          }
        : undefined,
  });
  const at = html.indexOf(BODY_SLOT);
  if (at === -1 || html.indexOf(BODY_SLOT, at + 1) !== -1)
    throw new Error("templates/components/layout.tsx must render its children exactly once");
  return { before: html.slice(0, at), after: html.slice(at + BODY_SLOT.length), islands: collector.names };
}

export function renderPage(input: RenderInput): RenderOutput {
  const body = renderBody(input);
  const frame = renderFrame(input, body);
  return { html: frame.before + body.html + frame.after, islands: frame.islands, meta: body.meta };
}
