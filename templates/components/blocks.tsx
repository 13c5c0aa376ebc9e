/**
 * Building blocks shared by page templates: the page hero, card lists for cases/programs/articles/
 * partners, and the meta defaults from a document's SEO tab.
 */
import { ENGLISH_HREFLANG, EnglishMark, leadsToEnglish } from "../../src/client/link-lang.js";
import type { PrismicDocument } from "@prismicio/client";
import type { ReactNode } from "react";
import type { PageMeta, TemplateContext } from "../../src/template-kit/types.js";
import { pathForDocument } from "../../src/content/routes.js";
import { fallbackTitle as documentFallbackTitle } from "../../src/content/content-checks.js";
import { dataOf, formatDate, image, plain, rich, str, type ImageValue } from "./fields.js";
import { Picture } from "./picture.js";
import { dirOf, htmlLang } from "../i18n/html-lang.js";
import { inEnglishWords } from "../i18n/in-english.js";
import { RichText } from "./rich-text.js";

/**
 * How wide the hero's image is shown, from templates/styles/site.css: the `.container` is
 * min(1120px, 100% - 2 × --space) with --space between 16 and 24 px, and the hero's grid puts the
 * image beside the text (two 420 px minimum columns and a gap) from about 910 px. So on a phone it
 * spans the screen but for the margins, and on a desktop half the container, at most 548 px. Each
 * value is at least the width shown, so the browser never picks a candidate too small, and on a
 * 390 px phone at 3x it takes the 1080 w breakpoint rather than the 1366 w that `100vw` would ask for.
 */
export const HERO_IMAGE_SIZES = "(min-width: 1168px) 548px, (min-width: 910px) calc(50vw - 24px), calc(100vw - 32px)";

export function Hero({
  ctx,
  title,
  intro,
  heroImage,
  children,
}: {
  ctx: TemplateContext;
  title: string;
  intro?: string;
  heroImage?: ImageValue;
  children?: ReactNode;
}) {
  const d = dataOf(ctx.doc);
  return (
    <section className={heroImage ? "hero hero-with-image" : "hero"}>
      <div className="container hero-inner">
        <div className="hero-text">
          <h1>{title}</h1>
          {intro !== undefined ? <RichText field={rich(d, intro)} ctx={ctx} className="lead" /> : null}
          {children}
        </div>
        {heroImage ? (
          <Picture image={heroImage} images={ctx.images} layout="full" sizes={HERO_IMAGE_SIZES} priority />
        ) : null}
      </div>
    </section>
  );
}

export interface CardItem {
  href: string | null;
  title: string;
  text?: string;
  image?: ImageValue;
  meta?: string;
  /** The document's language, when it may differ from the page's (an English case on the Arabic home page). */
  lang?: string;
}

export function CardList({
  ctx,
  items,
  headingLevel = 2,
  label,
}: {
  ctx: TemplateContext;
  items: CardItem[];
  headingLevel?: 2 | 3;
  label?: string;
}) {
  if (!items.length) return null;
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className="card-grid" aria-label={label}>
      {items.map((item, i) => (
        // An English card on an Arabic page is marked English, so a screen reader reads it as English
        // (WCAG 3.1.2), and laid out left to right: in the page's right-to-left flow its dates and
        // full stops were reordered ("March 2026 18", ".family of five").
        <li
          className="card"
          key={i}
          {...(item.lang && item.lang !== ctx.page.lang ? { lang: htmlLang(item.lang), dir: dirOf(item.lang) } : {})}
        >
          {item.image ? (
            <Picture image={{ ...item.image, alt: null }} images={ctx.images} sizes="(max-width: 700px) 100vw, 33vw" />
          ) : null}
          <div className="card-body">
            <H className="card-title">
              {item.href ? (
                // A card leading to a page only in English says so; an English card is itself
                // marked English, so the badge alone is enough there.
                leadsToEnglish(item.href, ctx.page.lang) ? (
                  <a href={item.href} hrefLang={ENGLISH_HREFLANG}>
                    {item.title}
                    <EnglishMark said={item.lang && item.lang !== ctx.page.lang ? "" : inEnglishWords(ctx.page.lang)} />
                  </a>
                ) : (
                  <a href={item.href}>{item.title}</a>
                )
              ) : (
                item.title
              )}
            </H>
            {item.meta ? <p className="card-meta">{item.meta}</p> : null}
            {item.text ? <p>{item.text}</p> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A document as a card: title, summary/excerpt, its main image, and a date when it has one. */
export function cardOf(doc: PrismicDocument, imageField = "featured_image"): CardItem {
  const d = dataOf(doc);
  const published = str(d, "published");
  return {
    href: pathForDocument(doc),
    title: plain(d, "title").trim() || str(d, "name") || documentFallbackTitle(doc),
    text: str(d, "summary") || str(d, "excerpt") || undefined,
    image: image(d, imageField) ?? image(d, "logo"),
    meta: published ? formatDate(published, doc.lang) : str(d, "location") || undefined,
    lang: doc.lang,
  };
}

/** Meta from the SEO tab, falling back to the title, then the given image fields. */
export function metaFromSeo(
  ctx: TemplateContext,
  fallbackTitle = "",
  imageFields = ["hero_image", "featured_image"],
): PageMeta {
  const d = dataOf(ctx.doc);
  const img = image(d, "meta_image") ?? imageFields.map((f) => image(d, f)).find(Boolean);
  const processed = img ? ctx.images.get(img.url, "constrained") : undefined;
  // An image the build refused (src/images/source-policy.ts) is not named in the page's meta either.
  const shown = processed === null ? undefined : img;
  return {
    title:
      str(d, "meta_title") ||
      plain(d, "title").trim() ||
      fallbackTitle ||
      (ctx.doc ? documentFallbackTitle(ctx.doc) : ""),
    description: str(d, "meta_description") || str(d, "summary") || str(d, "excerpt") || undefined,
    image: shown
      ? {
          url: processed?.src ?? shown.url,
          width: processed?.width ?? shown.width,
          height: processed?.height ?? shown.height,
          alt: shown.alt,
        }
      : undefined,
  };
}

/** Marks where an interactive island will live, with the static content shown until it exists. */
export function IslandSlot({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="island-slot" data-island-slot={name}>
      {children}
    </div>
  );
}
