/**
 * Pages that are mostly one document's text: about (with members), apply, contact, privacy,
 * learn (with the latest articles), guides, account and landing pages.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { Template } from "../template.js";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { cardOf, CardList, Hero, metaFromSeo } from "../components/blocks.js";
import { contactField, dataOf, formatDate, group, image, pageTitle, plain, rich, str } from "../components/fields.js";
import { Picture } from "../components/picture.js";
import { RichText } from "../components/rich-text.js";
import { SliceZone } from "../components/slices.js";
import { Island } from "../../src/template-kit/islands.js";
import type { PublicAuthConfig } from "../../src/auth/types.js";
import AccountIsland from "../../src/client/islands/account.js";
import ContactForm from "../../src/client/islands/contact-form.js";
import { contactWords } from "../../src/client/contact/words.js";
import { paymentsConfigOf } from "./donation.js";

const TEAMS: [string, string][] = [
  ["board", "Board"],
  ["shariah_panel", "Shariah panel"],
  ["staff", "Our team"],
];

function Members({ ctx }: { ctx: TemplateContext }) {
  const members = ctx.graph
    .all("member", ctx.page.lang)
    .sort((a, b) => (Number(dataOf(a).order) || 0) - (Number(dataOf(b).order) || 0));
  if (!members.length) return null;
  return (
    <section className="container section" aria-labelledby="members">
      <h2 id="members">{str(dataOf(ctx.doc), "members_heading") || "Our people"}</h2>
      {TEAMS.map(([team, label]) => {
        const list = members.filter((m) => str(dataOf(m), "team") === team);
        if (!list.length) return null;
        return (
          <div key={team} className="team">
            <h3>{label}</h3>
            <ul className="member-grid">
              {list.map((m: PrismicDocument) => {
                const d = dataOf(m);
                return (
                  <li key={m.id} className="member" id={m.uid ?? m.id}>
                    <Picture image={image(d, "photo")} images={ctx.images} layout="fixed" sizes="160px" />
                    <h4>{str(d, "name")}</h4>
                    <p className="member-role">{str(d, "role")}</p>
                    <RichText field={rich(d, "bio")} ctx={ctx} />
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </section>
  );
}

export const about: Template = {
  meta: (ctx) => metaFromSeo(ctx, "About us"),
  Body: ({ ctx }) => (
    <>
      <Hero ctx={ctx} title={pageTitle(ctx, "About us")} heroImage={image(dataOf(ctx.doc), "hero_image")} />
      <div className="container section">
        <RichText field={rich(dataOf(ctx.doc), "body")} ctx={ctx} />
      </div>
      <Members ctx={ctx} />
      <SliceZone ctx={ctx} />
    </>
  ),
};

export const apply: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Apply for help"),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const applyHref = ctx.link(d.apply_link as never);
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Apply for help")} heroImage={image(d, "hero_image")} />
        <div className="container section">
          <RichText field={rich(d, "body")} ctx={ctx} />
          <h2>Who can apply</h2>
          <RichText field={rich(d, "eligibility")} ctx={ctx} />
          <h2>How to apply</h2>
          <ol className="steps">
            {group(d, "steps").map((step, i) => (
              <li key={i}>
                <h3>{str(step, "step_title")}</h3>
                <RichText field={rich(step, "step_text")} ctx={ctx} />
              </li>
            ))}
          </ol>
          {applyHref ? (
            <p>
              <a className="button button-primary" href={applyHref}>
                {str(d, "apply_label") || "Start your application"}
              </a>
            </p>
          ) : null}
        </div>
        <SliceZone ctx={ctx} />
      </>
    );
  },
};

export const contact: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Contact us"),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const g = dataOf(ctx.global);
    // The enquiry form posts to the service: without one (the sample site) the page gives the phone and e-mail only.
    const api = paymentsConfigOf(ctx);
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Contact us")} />
        <div className="container section two-columns">
          <div>
            <RichText field={rich(d, "body")} ctx={ctx} />
            {api ? (
              <Island
                name="contact-form"
                component={ContactForm}
                props={{
                  apiUrl: api.apiUrl,
                  words: contactWords,
                }}
              />
            ) : null}
          </div>
          {/* The headings sit outside <address>, which may hold no heading (HTML: address's content model). */}
          <section className="contact-card" aria-labelledby="contact-heading">
            <h2 id="contact-heading">Get in touch</h2>
            <address>
              {contactField(g, "contact_phone") ? (
                <p>
                  Phone:{" "}
                  <a href={`tel:${contactField(g, "contact_phone").replace(/[^+\d]/g, "")}`} dir="ltr">
                    {contactField(g, "contact_phone")}
                  </a>
                </p>
              ) : null}
              {contactField(g, "contact_email") ? (
                <p>
                  E-mail: <a href={`mailto:${contactField(g, "contact_email")}`}>{contactField(g, "contact_email")}</a>
                </p>
              ) : null}
              <RichText field={rich(g, "address")} ctx={ctx} />
            </address>
            <h3>Office hours</h3>
            <RichText field={rich(d, "hours")} ctx={ctx} />
          </section>
        </div>
      </>
    );
  },
};

export const privacy: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Privacy policy"),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    return (
      <div className="container section narrow">
        <h1>{pageTitle(ctx, "Privacy policy")}</h1>
        {str(d, "last_updated") ? <p className="muted">Last updated {formatDate(str(d, "last_updated"))}</p> : null}
        <RichText field={rich(d, "body")} ctx={ctx} />
      </div>
    );
  },
};

export const learn: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Learn about zakat"),
  Body({ ctx }) {
    const articles = ctx.graph.all("blog_article", ctx.page.lang);
    return (
      <>
        <Hero
          ctx={ctx}
          title={pageTitle(ctx, "Learn")}
          intro="intro"
          heroImage={image(dataOf(ctx.doc), "hero_image")}
        />
        <SliceZone ctx={ctx} />
        <section className="container section" aria-labelledby="articles">
          <h2 id="articles">Articles</h2>
          <CardList ctx={ctx} items={articles.map((a) => cardOf(a))} headingLevel={3} />
        </section>
      </>
    );
  },
};

export const guides: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Guides"),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Guides")} intro="intro" />
        <div className="container section">
          <CardList
            ctx={ctx}
            items={group(d, "guides").map((g) => ({
              href: ctx.link(g.guide_link as never),
              title: str(g, "guide_title"),
              text: str(g, "guide_summary"),
              image: image(g, "guide_image"),
            }))}
          />
        </div>
      </>
    );
  },
};

export const account: Template = {
  meta: (ctx) => ({ ...metaFromSeo(ctx, "Your account"), noindex: true }),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const auth = (ctx.site.public.auth as PublicAuthConfig | null | undefined) ?? null;
    // Plain text from the document; empty fields fall back to the island's own defaults.
    const texts = { intro: plain(d, "signed_out_text"), unavailable: plain(d, "unavailable_text") };
    // Who issues the receipts the donor prints: the site's name and ABN from the global document.
    const g = dataOf(ctx.global);
    const issuer = { name: str(g, "site_name"), abn: str(g, "abn") };
    // A regular gift's new card is taken with Stripe's card form, with the site's publishable key.
    const stripeKey =
      (ctx.site.public.payments as { publishableKey?: string | null } | undefined)?.publishableKey ?? null;
    return (
      <div className="container section narrow">
        <h1>{pageTitle(ctx, "Your account")}</h1>
        <RichText field={rich(d, "body")} ctx={ctx} />
        {/* Without a user pool the island would only say sign-in is unavailable: plain HTML then, no React. */}
        {auth ? (
          <Island name="account" component={AccountIsland} props={{ auth, texts, issuer, stripeKey }} />
        ) : (
          <AccountIsland auth={null} texts={texts} issuer={issuer} stripeKey={stripeKey} />
        )}
        {auth ? (
          <noscript>
            <p>Signing in needs JavaScript. Please turn it on, or contact us and we will help.</p>
          </noscript>
        ) : null}
      </div>
    );
  },
};

export const landing: Template = {
  meta: (ctx) => metaFromSeo(ctx, plain(dataOf(ctx.doc), "title")),
  Body: ({ ctx }) => (
    <>
      <div className="container section">
        <h1>{pageTitle(ctx)}</h1>
      </div>
      <SliceZone ctx={ctx} />
    </>
  ),
};
