/**
 * Listing pages and the detail pages they link to: cases, programs (with partners), blog articles,
 * partners.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { Template } from "../template.js";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { cardOf, CardList, Hero, metaFromSeo } from "../components/blocks.js";
import { dataOf, docTitle, formatDate, image, pageTitle, rich, str } from "../components/fields.js";
import { Picture } from "../components/picture.js";
import { RichText } from "../components/rich-text.js";
import { SliceZone } from "../components/slices.js";
import { articleJsonLd } from "../components/json-ld.js";

export const cases: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Cases"),
  Body: ({ ctx }) => (
    <>
      <Hero ctx={ctx} title={pageTitle(ctx, "Cases")} intro="intro" heroImage={image(dataOf(ctx.doc), "hero_image")} />
      <div className="container section">
        <CardList ctx={ctx} items={ctx.graph.all("case", ctx.page.lang).map((doc) => cardOf(doc))} label="Cases" />
      </div>
    </>
  ),
};

export const programs: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Programs"),
  Body: ({ ctx }) => (
    <>
      <Hero
        ctx={ctx}
        title={pageTitle(ctx, "Programs")}
        intro="intro"
        heroImage={image(dataOf(ctx.doc), "hero_image")}
      />
      <section className="container section" aria-labelledby="program-list">
        <h2 id="program-list">Our programs</h2>
        <CardList
          ctx={ctx}
          items={ctx.graph.all("program", ctx.page.lang).map((doc) => cardOf(doc))}
          headingLevel={3}
        />
      </section>
      <section className="container section partner-cards" aria-labelledby="partner-list">
        <h2 id="partner-list">Our partners</h2>
        <CardList
          ctx={ctx}
          items={ctx.graph.all("partner", ctx.page.lang).map((doc) => cardOf(doc, "logo"))}
          headingLevel={3}
        />
      </section>
    </>
  ),
};

function Article({ ctx, kicker, children }: { ctx: TemplateContext; kicker?: string; children?: React.ReactNode }) {
  const d = dataOf(ctx.doc);
  return (
    <article className="container section narrow">
      <header className="article-header">
        {kicker ? <p className="kicker">{kicker}</p> : null}
        <h1>{pageTitle(ctx)}</h1>
        {str(d, "summary") || str(d, "excerpt") ? (
          <p className="lead">{str(d, "summary") || str(d, "excerpt")}</p>
        ) : null}
      </header>
      <Picture
        image={image(d, "featured_image")}
        images={ctx.images}
        sizes="(max-width: 800px) 100vw, 800px"
        priority
      />
      <RichText field={rich(d, "body")} ctx={ctx} />
      {children}
    </article>
  );
}

export const blogArticle: Template = {
  meta: (ctx) => {
    const meta = metaFromSeo(ctx);
    return { ...meta, type: "article", jsonLd: [articleJsonLd(ctx, meta, "Article")] };
  },
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const byline = [str(d, "author"), str(d, "published") ? formatDate(str(d, "published"), ctx.page.lang) : ""]
      .filter(Boolean)
      .join(" · ");
    // The first three other articles, without walking the whole list on every article page.
    const more: PrismicDocument[] = [];
    for (const article of ctx.graph.all("blog_article", ctx.page.lang)) {
      if (more.length === 3) break;
      if (article.id !== ctx.doc?.id) more.push(article);
    }
    return (
      <>
        <Article ctx={ctx} kicker={byline} />
        {more.length ? (
          <section className="container section" aria-labelledby="more-articles">
            <h2 id="more-articles">More to read</h2>
            <CardList ctx={ctx} items={more.map((a) => cardOf(a))} headingLevel={3} />
          </section>
        ) : null}
      </>
    );
  },
};

export const caseStudy: Template = {
  meta: (ctx) => {
    const meta = metaFromSeo(ctx);
    return { ...meta, type: "article", jsonLd: [articleJsonLd(ctx, meta, "Report")] };
  },
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const programId = (d.program as { id?: string } | undefined)?.id;
    const program = programId ? ctx.graph.byId(programId) : undefined;
    const programHref = program
      ? ctx.link({ link_type: "Document", id: program.id, type: program.type, uid: program.uid })
      : null;
    return (
      <Article ctx={ctx} kicker={str(d, "location")}>
        {program && programHref ? (
          <p className="related">
            Part of our <a href={programHref}>{docTitle(program)}</a> program.
          </p>
        ) : null}
        <p>
          <a className="button button-primary" href="/pay/zakat/">
            Give zakat to help people like this
          </a>
        </p>
      </Article>
    );
  },
};

export const partner: Template = {
  meta: (ctx) => metaFromSeo(ctx, "", ["logo"]),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const website = ctx.link(d.website as never);
    return (
      <article className="container section narrow">
        <Picture
          image={image(d, "logo")}
          images={ctx.images}
          layout="fixed"
          sizes="300px"
          priority
          className="partner-logo"
        />
        <h1>{pageTitle(ctx)}</h1>
        {str(d, "summary") ? <p className="lead">{str(d, "summary")}</p> : null}
        <RichText field={rich(d, "body")} ctx={ctx} />
        {website ? (
          <p>
            <a href={website} rel="noopener">
              Visit {pageTitle(ctx)}'s website
            </a>
          </p>
        ) : null}
      </article>
    );
  },
};

export const program: Template = {
  meta: (ctx) => metaFromSeo(ctx),
  Body({ ctx }) {
    const programCases = ctx.graph
      .all("case", ctx.page.lang)
      .filter((c: PrismicDocument) => (dataOf(c).program as { id?: string } | undefined)?.id === ctx.doc?.id);
    return (
      <>
        <Article ctx={ctx} />
        <SliceZone ctx={ctx} />
        {programCases.length ? (
          <section className="container section" aria-labelledby="program-cases">
            <h2 id="program-cases">Cases in this program</h2>
            <CardList ctx={ctx} items={programCases.map((doc) => cardOf(doc))} headingLevel={3} />
          </section>
        ) : null}
      </>
    );
  },
};
