/**
 * The template bundle's entry: the render stage (src/render/render-stage.ts) bundles this file with
 * esbuild and calls `renderPage` for every page. Everything that touches React lives on this side,
 * so React is loaded once, in production mode, by the bundle.
 */
import { renderToString } from "react-dom/server";
import type { RenderInput, RenderOutput, TemplateContext } from "../src/render/types.js";
import { createIslandCollector, IslandCollectorContext } from "../src/render/islands.js";
import type { Template } from "./template.js";
import { renderDocument } from "./document.js";
import { Layout } from "./components/layout.js";
import { dataOf, image, str } from "./components/fields.js";
import { home } from "./pages/home.js";
import { about, account, apply, contact, guides, landing, learn, privacy } from "./pages/content-pages.js";
import { blogArticle, caseStudy, cases, partner, program, programs } from "./pages/collections.js";
import { faq } from "./pages/faq.js";
import { pay, thankYou } from "./pages/giving.js";
import { calculate } from "./pages/calculate.js";
import { donation } from "./pages/donation.js";
import { notFound, preview, ramadanCalendars, redirect, rightToZakatDraft, serverError, styleguide } from "./pages/static-pages.js";

export const TEMPLATES: Record<string, Template> = {
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

export function renderPage(input: RenderInput): RenderOutput {
  const template = TEMPLATES[input.page.template];
  if (!template) throw new Error(`No template named "${input.page.template}" in templates/entry.tsx`);
  const doc = input.page.documentId ? input.graph.byId(input.page.documentId) : undefined;
  const global = input.graph.single("global", input.page.lang);
  const ctx: TemplateContext = { page: input.page, doc, global, graph: input.graph, images: input.images, site: input.site, link: input.graph.resolveLink };
  const collector = createIslandCollector();
  const body = renderToString(
    <IslandCollectorContext.Provider value={collector}>
      {template.bare ? <template.Body ctx={ctx} /> : (
        <Layout ctx={ctx}>
          <template.Body ctx={ctx} />
        </Layout>
      )}
    </IslandCollectorContext.Provider>,
  );
  const meta = template.meta(ctx);
  const g = dataOf(global);
  const defaultImage = image(g, "default_social_image");
  const processedDefault = defaultImage ? input.images.get(defaultImage.url, "constrained") : undefined;
  const html = renderDocument({
    input,
    meta,
    body,
    islands: collector.names,
    siteName: str(g, "site_name") || "National Zakat Foundation",
    defaultDescription: str(g, "default_meta_description"),
    defaultImage: defaultImage
      ? { url: processedDefault?.src ?? defaultImage.url, width: processedDefault?.width ?? defaultImage.width, height: processedDefault?.height ?? defaultImage.height, alt: defaultImage.alt }
      : undefined,
  });
  return { html, islands: collector.names, meta };
}
