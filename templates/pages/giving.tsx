/**
 * The giving pages: /pay (choose a fund, and give from the same page) and the thank-you page.
 * Donation pages are in donation.tsx, the calculator in calculate.tsx. The fund list here is
 * complete without JavaScript.
 */
import type { Template } from "../template.js";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { DONATION_TYPES, normalizePath, pathForDocument, SINGLE_TYPE_ROUTES } from "../../src/content/routes.js";
import { CardList, Hero, metaFromSeo } from "../components/blocks.js";
import { dataOf, docTitle, pageTitle, str } from "../components/fields.js";
import { Island } from "../../src/template-kit/islands.js";
import ThankYou, { type ThankYouProps } from "../../src/client/islands/thank-you.js";
import { donationWords, thankYouWords } from "../../src/client/donation/words/index.js";
import {
  CONTACT_PATH,
  DonationFormOrNotice,
  fundConfigOf,
  GIVE_ID,
  GiveNowLink,
  paymentsConfigOf,
  StickyGiveNow,
} from "./donation.js";

function fundDocs(ctx: TemplateContext) {
  return DONATION_TYPES.map((type) => ctx.graph.single(type, ctx.page.lang)).filter((doc) => doc !== undefined);
}

function fundCards(ctx: TemplateContext) {
  return fundDocs(ctx).map((doc) => ({
    href: pathForDocument(doc!),
    title: docTitle(doc!),
    text: str(dataOf(doc), "fund_summary") || undefined,
  }));
}

export const pay: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Give"),
  Body({ ctx }) {
    const payments = paymentsConfigOf(ctx);
    const funds = fundDocs(ctx)
      .map((doc) => fundConfigOf(doc!))
      .filter((c) => c !== undefined);
    const words = donationWords(ctx.page.lang);
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Give")} intro="intro">
          {funds.length ? <GiveNowLink words={words} /> : null}
        </Hero>
        <div className="container section two-columns">
          <section aria-labelledby="funds">
            <h2 id="funds">Choose where your gift goes</h2>
            <CardList ctx={ctx} items={fundCards(ctx)} headingLevel={3} />
          </section>
          {funds.length ? (
            <section id={GIVE_ID} className="donation-panel" aria-label={words.formLabel}>
              <DonationFormOrNotice
                funds={funds}
                formPath={normalizePath(SINGLE_TYPE_ROUTES.pay_page)}
                payments={payments}
                words={words}
                lang={ctx.page.lang}
              />
            </section>
          ) : null}
        </div>
        {funds.length && payments ? <StickyGiveNow words={words} /> : null}
      </>
    );
  },
};

/** A single page's path in the page's language when it has one, else the English page's. */
function pathOfSingle(ctx: TemplateContext, type: keyof typeof SINGLE_TYPE_ROUTES): string {
  const doc = ctx.graph.single(type, ctx.page.lang);
  return (doc && pathForDocument(doc)) || normalizePath(SINGLE_TYPE_ROUTES[type]);
}

export const thankYou: Template = {
  meta: (ctx) => ({ title: thankYouWords(ctx.page.lang).thankYou, noindex: true }),
  Body: ({ ctx }) => {
    const payments = paymentsConfigOf(ctx);
    const props: ThankYouProps = {
      payments: payments && { apiUrl: payments.apiUrl },
      fallbackPath: pathOfSingle(ctx, "pay_page"),
      contactPath: CONTACT_PATH,
      lang: ctx.page.lang,
      words: thankYouWords(ctx.page.lang),
    };
    return (
      <div className="container section narrow">
        {/* Without payments there is no gift to look up: the same words as plain HTML, no island and no React. */}
        {payments ? <Island name="thank-you" component={ThankYou} props={props} /> : <ThankYou {...props} />}
      </div>
    );
  },
};
