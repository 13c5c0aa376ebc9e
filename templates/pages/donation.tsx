/**
 * The donation pages (/pay/zakat/ …): the fund's text and the donation form island (issue 5).
 * The form's settings come from the page's content laid over the backend's rules for the fund
 * (DEFAULT_FUND_RULES): content may narrow the limits and the schedules, never widen them.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { Template } from "../template.js";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { Hero, metaFromSeo } from "../components/blocks.js";
import { dataOf, docTitle, group, image, num, pageTitle, plain, rich, str } from "../components/fields.js";
import { RichText } from "../components/rich-text.js";
import { Island } from "../../src/template-kit/islands.js";
import {
  normalizePath,
  pathForDocument,
  SINGLE_TYPE_ROUTES,
  STATIC_PAGES,
  thankYouPathFor,
} from "../../src/content/routes.js";
import { DEFAULT_FUND_RULES, isTaxDeductible, withContentLimits } from "../../src/payments/fund-rules.js";
import { fundOfType, SEASONAL_FREQUENCIES, type Frequency, type Fund } from "../../src/payments/types.js";
import type { FundConfig, PaymentsConfig } from "../../src/client/donation/config.js";
import Donation from "../../src/client/islands/donation.js";
import { SiteLink } from "../../src/client/link-lang.js";
import { repeatsAmount } from "../../src/client/donation/gift-section.js";
import { donationWords } from "../../src/client/donation/words/index.js";
import type { DonationWords } from "../../src/client/donation/words/en.js";

export const fundOf = (doc: PrismicDocument): Fund | undefined => fundOfType(doc.type);
const cents = (dollars: number | undefined) =>
  dollars !== undefined && dollars > 0 ? Math.round(dollars * 100) : undefined;

/** The island's settings for one donation page, in its language. */
export function fundConfigOf(doc: PrismicDocument): FundConfig | undefined {
  const words = donationWords(doc.lang);
  const fund = fundOf(doc);
  if (!fund) return undefined;
  const d = dataOf(doc);
  const rules = withContentLimits(DEFAULT_FUND_RULES[fund], {
    minimumAmount: num(d, "minimum_amount"),
    maximumAmount: num(d, "maximum_amount"),
  });
  const seasonStart = str(d, "season_start");
  const seasonLength = num(d, "season_length");
  const season = seasonStart && seasonLength ? { start: seasonStart, length: seasonLength } : undefined;
  const wanted = group(d, "frequencies").map((f) => str(f, "frequency"));
  const frequencies = rules.frequencies.filter(
    (f: Frequency) =>
      (wanted.length === 0 || wanted.includes(f)) &&
      (season || !(SEASONAL_FREQUENCIES as readonly string[]).includes(f)),
  );
  const config: FundConfig = {
    fund,
    title: docTitle(doc),
    path: pathForDocument(doc) ?? `/pay/${fund}/`,
    presets: group(d, "presets")
      .map((p) => {
        const amountCents = cents(num(p, "amount"))!;
        const label = str(p, "label");
        return { amountCents, label: label && !repeatsAmount(label, amountCents) ? label : undefined };
      })
      .filter(
        (p) =>
          p.amountCents !== undefined && p.amountCents >= rules.minimumCents && p.amountCents <= rules.maximumCents,
      ),
    defaultAmountCents: cents(num(d, "default_amount")),
    minimumCents: rules.minimumCents,
    maximumCents: rules.maximumCents,
    frequencies: frequencies.length ? frequencies : ["once"],
  };
  if (season) config.season = season;
  if (rules.quantity) {
    const [singular, plural] = (words.units as Partial<Record<Fund, [string, string]>>)[fund] ?? [
      "unit",
      rules.quantity.label,
    ];
    const options = group(d, "animal_options")
      .map((o) => ({ code: str(o, "code"), label: str(o, "option_label"), unitCents: cents(num(o, "option_price"))! }))
      .filter((o) => o.label && o.unitCents);
    config.quantity = {
      unitCents: cents(num(d, "unit_amount")) ?? rules.quantity.unitCents,
      min: rules.quantity.min,
      max: rules.quantity.max,
      label: plural,
      unitLabel: str(d, "unit_label") || singular,
    };
    if (options.length) {
      config.quantity.options = options;
      // The content names the preselected animal by its code; an unknown or empty code keeps the first.
      const preselected = options.findIndex((o) => o.code && o.code === str(d, "default_option"));
      if (preselected > 0) config.quantity.defaultOption = preselected;
    }
  }
  if (fund === "tainted-wealth") config.note = plain(d, "purification_note") || words.taintedNote;
  return config;
}

/** The public payments configuration, when this build has one (PAYMENTS_API_URL and the publishable key; PayPal's client ID when set). */
export function paymentsConfigOf(ctx: TemplateContext): PaymentsConfig | null {
  const p = ctx.site.public.payments as
    | { apiUrl?: unknown; publishableKey?: unknown; paypalClientId?: unknown }
    | undefined;
  if (!p || typeof p.apiUrl !== "string" || typeof p.publishableKey !== "string") return null;
  return {
    apiUrl: p.apiUrl,
    publishableKey: p.publishableKey,
    ...(typeof p.paypalClientId === "string" && p.paypalClientId ? { paypalClientId: p.paypalClientId } : {}),
  };
}

export const THANK_YOU_PATH = `${STATIC_PAGES["thank-you"].path}/`;
export const CONTACT_PATH = `${normalizePath(SINGLE_TYPE_ROUTES.contact_page)}`;
/** The form's section: the calculator links to `/pay/zakat/?amount=…#give`. */
export const GIVE_ID = "give";

/** At the top of a pay page: straight to the form, which on a phone is below the fund's text. */
export function GiveNowLink({ words }: { words: DonationWords }) {
  return (
    <p className="don-jump">
      <a className="button button-primary" href={`#${GIVE_ID}`}>
        {words.giveNow}
      </a>
    </p>
  );
}

/**
 * On a phone, the same link kept at the bottom of the screen once the hero's has scrolled away and
 * while the form is out of view (src/client/donation/sticky-give-now.ts shows it; hidden until then).
 */
export function StickyGiveNow({ words }: { words: DonationWords }) {
  return (
    <a className="don-sticky button button-primary" href={`#${GIVE_ID}`} hidden>
      {words.giveNow}
    </a>
  );
}

/**
 * The build has no payments configuration: said before the donor fills anything in (no form), with
 * the way to give that exists. The contact page has the donor care team's phone and e-mail; they
 * take a gift by phone or send the bank details with a reference, so no account number is published
 * here (docs/payments-api.md, "Base URL and build configuration"). Static: it needs no JavaScript.
 */
export function PaymentsUnavailable({ words, lang }: { words: DonationWords; lang: string }) {
  return (
    <div className="donation-form">
      <h2>{words.giveNow}</h2>
      <div className="don-alert don-unavailable">
        <p>
          <strong>{words.unavailableTitle}</strong>
        </p>
        <p>
          {words.unavailableBefore}
          <SiteLink href={CONTACT_PATH} lang={lang} said={words.inEnglish}>
            {words.unavailableLink}
          </SiteLink>
          {words.unavailableAfter}
        </p>
      </div>
    </div>
  );
}

export function NoScriptNote({ words, lang }: { words: DonationWords; lang: string }) {
  return (
    <noscript>
      <p>
        {words.noScript}
        <SiteLink href={CONTACT_PATH} lang={lang} said={words.inEnglish}>
          {words.noScriptLink}
        </SiteLink>
        {words.noScriptAfter}
      </p>
    </noscript>
  );
}

/**
 * The donation form for `funds` (the island) with its note for browsers without JavaScript, or, when
 * the build has no payments configuration, the notice that card payments are unavailable
 * (PaymentsUnavailable) and no island, so no React on the page. A pay page and /pay show the same.
 */
export function DonationFormOrNotice({
  funds,
  formPath,
  payments,
  words,
  lang,
}: {
  funds: FundConfig[];
  /** The page the form is on: the thank-you page's way back to it. */
  formPath: string;
  payments: PaymentsConfig | null;
  words: DonationWords;
  lang: string;
}) {
  if (!payments) return <PaymentsUnavailable words={words} lang={lang} />;
  return (
    <>
      <Island
        name="donation"
        component={Donation}
        props={{ funds, formPath, thankYouPath: thankYouPathFor(lang), payments, words }}
      />
      <NoScriptNote words={words} lang={lang} />
    </>
  );
}

export const donation: Template = {
  meta: (ctx) => ({
    ...metaFromSeo(ctx),
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "DonateAction",
        name: plain(dataOf(ctx.doc), "title"),
        recipient: { "@type": "NGO", name: "National Zakat Foundation", url: ctx.site.siteUrl },
      },
    ],
  }),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const config = ctx.doc ? fundConfigOf(ctx.doc) : undefined;
    const payments = paymentsConfigOf(ctx);
    const words = donationWords(ctx.page.lang);
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx)} intro="intro" heroImage={image(d, "hero_image")}>
          {config ? <GiveNowLink words={words} /> : null}
        </Hero>
        <div className="container section two-columns">
          <div>
            <RichText field={rich(d, "body")} ctx={ctx} />
          </div>
          <section id={GIVE_ID} className="donation-panel" aria-label={words.formLabel}>
            {config ? (
              <>
                <DonationFormOrNotice
                  funds={[config]}
                  formPath={config.path}
                  payments={payments}
                  words={words}
                  lang={ctx.page.lang}
                />
                <p className="don-tax">{isTaxDeductible(config.fund) ? words.taxDeductible : words.notTaxDeductible}</p>
              </>
            ) : null}
          </section>
        </div>
        {config && payments ? <StickyGiveNow words={words} /> : null}
      </>
    );
  },
};
