/**
 * The giving pages: /pay (choose a fund), each donation page (/pay/zakat/ …), the thank-you page,
 * and /calculate. Their interactive parts (donation form, calculator) are islands; the static
 * content here is complete without JavaScript.
 */
import type { Template } from "../template.js";
import type { TemplateContext } from "../../src/render/types.js";
import { DONATION_TYPES, pathForDocument } from "../../src/content/routes.js";
import { CardList, Hero, IslandSlot, metaFromSeo } from "../components/blocks.js";
import { aud, dataOf, formatDate, group, image, num, plain, rich, str } from "../components/fields.js";
import { RichText } from "../components/rich-text.js";
import { pageTitle } from "../components/layout.js";


function fundCards(ctx: TemplateContext) {
  return DONATION_TYPES.map((type) => ctx.graph.single(type, ctx.page.lang))
    .filter((doc) => doc !== undefined)
    .map((doc) => ({ href: pathForDocument(doc!), title: plain(dataOf(doc), "title"), text: str(dataOf(doc), "fund_summary") || undefined }));
}

export const pay: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Give"),
  Body: ({ ctx }) => (
    <>
      <Hero ctx={ctx} title={pageTitle(ctx, "Give")} intro="intro" />
      <section className="container section" aria-labelledby="funds">
        <h2 id="funds">Choose where your gift goes</h2>
        <CardList ctx={ctx} items={fundCards(ctx)} headingLevel={3} />
      </section>
    </>
  ),
};

export const donation: Template = {
  meta: (ctx) => ({
    ...metaFromSeo(ctx),
    jsonLd: [{ "@context": "https://schema.org", "@type": "DonateAction", name: plain(dataOf(ctx.doc), "title"), recipient: { "@type": "NGO", name: "National Zakat Foundation", url: ctx.site.siteUrl } }],
  }),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const presets = group(d, "presets").filter((p) => num(p, "amount"));
    const min = num(d, "minimum_amount");
    const max = num(d, "maximum_amount");
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx)} intro="intro" heroImage={image(d, "hero_image")} />
        <div className="container section two-columns">
          <div>
            <RichText field={rich(d, "body")} ctx={ctx} />
          </div>
          <IslandSlot name="donation">
            <section className="donation-summary" aria-labelledby="give-heading">
              <h2 id="give-heading">Give now</h2>
              {presets.length ? (
                <ul className="preset-list" aria-label="Suggested amounts">
                  {presets.map((p, i) => (
                    <li key={i}>
                      {aud(num(p, "amount")!)}
                      {str(p, "label") ? ` · ${str(p, "label")}` : ""}
                    </li>
                  ))}
                </ul>
              ) : null}
              {min !== undefined || max !== undefined ? (
                <p className="muted">
                  Gifts from {aud(min ?? 1)}
                  {max ? ` to ${aud(max)}` : ""}.
                </p>
              ) : null}
              <noscript>
                <p>Our secure card form needs JavaScript. To give another way, call us or use the bank details on our contact page.</p>
              </noscript>
            </section>
          </IslandSlot>
        </div>
      </>
    );
  },
};

export const thankYou: Template = {
  meta: () => ({ title: "Thank you", noindex: true }),
  Body: () => (
    <div className="container section narrow">
      <h1>Thank you</h1>
      <IslandSlot name="thank-you">
        <p>May Allah accept your gift and reward you. Your receipt is on its way to your e-mail.</p>
      </IslandSlot>
    </div>
  ),
};

export const calculate: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Zakat calculator"),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const basis = str(d, "nisab_basis") === "gold" ? "gold" : "silver";
    const grams = basis === "gold" ? 85 : 595;
    const price = num(d, basis === "gold" ? "gold_price_per_gram" : "silver_price_per_gram");
    const asAt = str(d, "prices_as_at");
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Zakat calculator")} intro="intro" />
        <div className="container section">
          {price ? (
            <p className="nisab-note">
              The nisab is {grams} g of {basis} × {aud(price)} per gram = <strong>{aud(Math.round(grams * price * 100) / 100)}</strong>
              {asAt ? ` (prices as at ${formatDate(asAt)})` : ""}.
            </p>
          ) : null}
          <IslandSlot name="calculator">
            <RichText field={rich(d, "how_to")} ctx={ctx} />
          </IslandSlot>
        </div>
      </>
    );
  },
};
