/**
 * /calculate: the zakat calculator. The static page states the current nisab and the rates; the
 * calculator island (src/client/islands/calculator.tsx) paints its empty form with the page and
 * does the sums live once used. Visitors without JavaScript get the editor's how-to text instead, in
 * `<noscript>`; the stylesheet hides the form, which would do nothing for them, with
 * `@media (scripting: none)` (no `<style>` in the body, which HTML allows only in the head).
 *
 * The settings are read with settingsFromPrismic, which throws DOCUMENT_INVALID listing every bad
 * field; the render stage turns that into a build failure naming this document.
 */
import type { Template } from "../template.js";
import { Hero, metaFromSeo } from "../components/blocks.js";
import { dataOf, pageTitle, rich } from "../components/fields.js";
import { richTextHtml } from "../components/rich-text.js";
import { Island } from "../../src/template-kit/islands.js";
import { normalizePath, pathForDocument, SINGLE_TYPE_ROUTES } from "../../src/content/routes.js";
import {
  calculateZakat,
  FALLBACK_HELP,
  formatAud,
  formatIsoDate,
  HELP_KEYS,
  settingsFromPrismic,
  type CalculatePageData,
  type HelpKey,
} from "../../src/zakat/index.js";
import Calculator from "../../src/client/islands/calculator.js";
import { formatsFor } from "../../src/client/donation/format.js";
import { donationWords } from "../../src/client/donation/words/index.js";
import { calculatorWords } from "../../src/client/calculator/words/index.js";
import { MASTER_LANG } from "../../src/content/routes.js";
import type { Ratio } from "../../src/zakat/ratio.js";

type Nisab = ReturnType<typeof calculateZakat>["nisab"];

/**
 * The nisab note in Arabic: numbers, amounts and the date from Intl for the page's locale (the
 * donation form's formats), the metals named in Arabic.
 */
function ArabicNisabNote({
  lang,
  nisab,
  other,
  rates,
}: {
  lang: string;
  nisab: Nisab;
  other: Nisab;
  rates: { lunar: string; solar: string };
}) {
  const f = formatsFor(donationWords(lang));
  const metal = (basis: string) => (basis === "gold" ? "الذهب" : "الفضة");
  const perGram = (r: Ratio) => f.money(Math.round(Number(r.numerator) / Number(r.denominator)));
  const grams = (n: number) => new Intl.NumberFormat(f.words.locale).format(n);
  return (
    <div className="nisab-note">
      <p>
        {`النصاب ${grams(nisab.grams)} غرامًا من ${metal(nisab.basis)} × ${perGram(nisab.pricePerGramCents)} للغرام = `}
        <strong>{f.money(Number(nisab.valueCents))}</strong>
        {`، أو ${grams(other.grams)} غرامًا من ${metal(other.basis)} × ${perGram(other.pricePerGramCents)} للغرام = `}
        <strong>{f.money(Number(other.valueCents))}</strong>
        {` إن قدّرته ب${metal(other.basis)} (يمكنك الاختيار في الحاسبة؛ الأسعار في ${f.shortDate(nisab.pricesAsAt)}).`}
      </p>
      <p className="muted">
        {`إن بلغ ما تملكه بعد طرح ما عليك من ديون حالّة النصاب أو زاد عليه، فالزكاة ${grams(Number(rates.lunar))}% منه للسنة القمرية، أو ${grams(Number(rates.solar))}% إن حسبت بالسنة الشمسية.`}
      </p>
    </div>
  );
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export const calculate: Template = {
  meta: (ctx) => metaFromSeo(ctx, "Zakat calculator"),
  Body({ ctx }) {
    const d = dataOf(ctx.doc);
    const { help, ...settings } = settingsFromPrismic(
      d as CalculatePageData,
      ctx.doc ? `calculate_page ${ctx.doc.id}` : "calculate_page (missing)",
    );
    // A help field the editor left empty gets the built-in English text, marked English on another
    // language's page (WCAG 3.1.2) rather than passed off as that language.
    const fallbackLang = ctx.page.lang === MASTER_LANG ? "" : ' lang="en-AU" dir="ltr"';
    const helpHtml = Object.fromEntries(
      HELP_KEYS.map((key) => [
        key,
        help[key] ? richTextHtml(help[key]!, ctx) : `<p${fallbackLang}>${escapeHtml(FALLBACK_HELP[key])}</p>`,
      ]),
    ) as Record<HelpKey, string>;
    // The nisab with nothing entered: the same exact sum the island shows, never a float product.
    const nothing = { yearType: "lunar" as const, assets: {}, liabilities: {} };
    const { nisab } = calculateZakat(nothing, { ...settings, help });
    const other = calculateZakat(nothing, {
      ...settings,
      nisabBasis: settings.nisabBasis === "silver" ? "gold" : "silver",
      help,
    }).nisab;
    const zakatDoc = ctx.graph.single("zakat", ctx.page.lang);
    const payPath = (zakatDoc && pathForDocument(zakatDoc)) || normalizePath(SINGLE_TYPE_ROUTES.zakat);
    const arabic = ctx.page.lang.split("-")[0] === "ar";
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Zakat calculator")} intro="intro" />
        <div className="container section">
          {arabic ? (
            <ArabicNisabNote lang={ctx.page.lang} nisab={nisab} other={other} rates={settings.ratePercent} />
          ) : (
            <div className="nisab-note">
              <p>
                The nisab is {nisab.grams} g of {nisab.basis} × {nisab.pricePerGramText}
                {" per gram = "}
                <strong>{formatAud(nisab.valueCents)}</strong>, or {other.grams} g of {other.basis}
                {" × "}
                {other.pricePerGramText} per gram = <strong>{formatAud(other.valueCents)}</strong>
                {" if you measure by "}
                {other.basis} (you can choose in the calculator; prices as at {formatIsoDate(nisab.pricesAsAt)}).
              </p>
              <p className="muted">
                If what you own, less what you owe now, is at or above the nisab, zakat is {settings.ratePercent.lunar}%
                of it for a lunar year, or {settings.ratePercent.solar}% if you count by the solar year.
              </p>
            </div>
          )}
          {/* The calculator's words in the page's language (its dictionary is a prop), its "Pay" link to
              the zakat page in the same language. */}
          <Island
            name="calculator"
            component={Calculator}
            props={{ settings, helpHtml, payPath, words: calculatorWords(ctx.page.lang) }}
          />
          <noscript
            dangerouslySetInnerHTML={{
              __html: `<div class="prose calc-fallback">${richTextHtml(rich(d, "how_to"), ctx)}</div>`,
            }}
          />
        </div>
      </>
    );
  },
};
