/**
 * The giving pages: /pay (choose a fund) and the thank-you page. Donation pages are in
 * donation.tsx, the calculator in calculate.tsx. The static content here is complete
 * without JavaScript.
 */
import type { Template } from "../template.js";
import type { TemplateContext } from "../../src/render/types.js";
import { DONATION_TYPES, pathForDocument } from "../../src/content/routes.js";
import { CardList, Hero, IslandSlot, metaFromSeo } from "../components/blocks.js";
import { dataOf, plain, str } from "../components/fields.js";
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

