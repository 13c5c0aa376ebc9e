/**
 * The donation pages (/pay/zakat/ …): the fund's text and the donation form island (issue 5).
 */
import type { Template } from "../template.js";
import { Hero, IslandSlot, metaFromSeo } from "../components/blocks.js";
import { aud, dataOf, group, image, num, plain, rich, str } from "../components/fields.js";
import { RichText } from "../components/rich-text.js";
import { pageTitle } from "../components/layout.js";

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

