/**
 * /calculate: the zakat calculator. The static page explains how to calculate and shows the
 * current nisab; the calculator island (issue 4) does the sums live.
 */
import type { Template } from "../template.js";
import { Hero, IslandSlot, metaFromSeo } from "../components/blocks.js";
import { aud, dataOf, formatDate, num, rich, str } from "../components/fields.js";
import { RichText } from "../components/rich-text.js";
import { pageTitle } from "../components/layout.js";

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
