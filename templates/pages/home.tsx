import type { Template } from "../template.js";
import { cardOf, CardList, Hero, metaFromSeo } from "../components/blocks.js";
import { contactField, dataOf, group, image, pageTitle, str } from "../components/fields.js";
import { SliceZone } from "../components/slices.js";
import type { PrismicDocument } from "@prismicio/client";

export const home: Template = {
  meta: (ctx) => ({
    ...metaFromSeo(ctx),
    title: str(dataOf(ctx.doc), "meta_title") || "",
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "NGO",
        name: str(dataOf(ctx.global), "site_name") || "National Zakat Foundation",
        url: ctx.site.siteUrl,
        email: contactField(dataOf(ctx.global), "contact_email") || undefined,
        telephone: contactField(dataOf(ctx.global), "contact_phone") || undefined,
        areaServed: "AU",
      },
    ],
  }),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const primary = ctx.link(d.primary_cta_link as never);
    const secondary = ctx.link(d.secondary_cta_link as never);
    const featured = group(d, "featured_cases")
      .map((row) => (row.case as { id?: string } | undefined)?.id)
      .map((id) => (id ? ctx.graph.byId(id) : undefined))
      .filter((doc): doc is PrismicDocument => Boolean(doc));
    return (
      <>
        <Hero
          ctx={ctx}
          title={pageTitle(ctx, "National Zakat Foundation")}
          intro="hero_text"
          heroImage={image(d, "hero_image")}
        >
          <p className="actions">
            {primary ? (
              <a className="button button-primary" href={primary}>
                {str(d, "primary_cta_label") || "Calculate your zakat"}
              </a>
            ) : null}
            {secondary ? (
              <a className="button button-secondary" href={secondary}>
                {str(d, "secondary_cta_label") || "Pay zakat"}
              </a>
            ) : null}
          </p>
        </Hero>
        {featured.length ? (
          <section className="container section" aria-labelledby="featured-cases">
            <h2 id="featured-cases">{ctx.page.lang.startsWith("ar") ? "حالات مميزة" : "Your zakat at work"}</h2>
            <CardList ctx={ctx} items={featured.map((doc) => cardOf(doc))} headingLevel={3} />
          </section>
        ) : null}
        <SliceZone ctx={ctx} />
      </>
    );
  },
};
