/**
 * The result panel: one sentence in a polite live region (so a screen reader hears the outcome
 * after each change without being interrupted), the explanation as a list, the price date, and
 * "Pay my zakat" when something is due. Words and figures in the page's language (format.ts).
 */
import { useEffect, useState } from "react";
import type { MetalHolding, ZakatLine, ZakatResult, ZakatSettings } from "../../zakat/types.js";
import { priceAge, STALE_AFTER_DAYS } from "../../zakat/price-age.js";
import { mul, parseDecimal, type Ratio, ratio } from "../../zakat/ratio.js";
import { fill } from "./format.js";
import type { CalcFormats } from "./format.js";
import { payHref } from "./form-state.js";
import { fieldLabel } from "./groups.js";

export interface ResultProps {
  f: CalcFormats;
  result: ZakatResult;
  /** The metal items the result was worked out from, for their lines' details in another language. */
  metals: { gold: readonly MetalHolding[]; silver: readonly MetalHolding[] };
  /** Fields whose message is showing: the result waits for them. */
  pendingErrors: { key: string; id: string }[];
  payPath: string;
  settings: Pick<ZakatSettings, "pricesAsAt" | "longTermShareProxyPercent" | "goldPricePerGram" | "silverPricePerGram">;
}

/** The result's heading: the step the donor is taken to by "See my result" and the running bar. */
export const RESULT_HEADING_ID = "calc-result-heading";

const rateOf = (r: ZakatResult): Ratio => ratio(r.rate.numerator, r.rate.denominator);

export function summarySentence(r: ZakatResult, f: CalcFormats): string {
  return fill(r.aboveNisab ? f.words.summaryDue : f.words.summaryBelow, {
    assets: f.money(r.totalAssetsCents),
    liabilities: f.money(r.totalLiabilitiesCents),
    net: f.money(r.netCents),
    nisab: f.money(r.nisab.valueCents),
    rate: f.percent(rateOf(r)),
    due: f.money(r.dueCents),
  });
}

/**
 * A line's explanation. English has src/zakat's own; another language builds it from the figures:
 * the metal lines follow the items with a weight or a value, in order, as calculateZakat makes them.
 */
function details(r: ZakatResult, f: CalcFormats, metals: ResultProps["metals"], settings: ResultProps["settings"]) {
  if (!f.words.intl) return r.lines.map((line) => line.detail);
  const w = f.words;
  const counted = {
    gold: metals.gold.filter((h) => (h.kind === "value" ? h.cents > 0n : h.milligrams > 0n)),
    silver: metals.silver.filter((h) => (h.kind === "value" ? h.cents > 0n : h.milligrams > 0n)),
  };
  const seen = { gold: 0, silver: 0 };
  return r.lines.map((line: ZakatLine) => {
    if (line.id === "sharesLongTerm")
      return fill(w.detailShares, {
        percent: f.percent(mul(decimalOf(settings.longTermShareProxyPercent), ratio(1n, 100n))),
        amount: f.money(line.valueCents),
      });
    if (line.id !== "gold" && line.id !== "silver") return undefined;
    const holding = counted[line.id][seen[line.id]++];
    if (!holding || holding.kind === "value") return w.detailValue;
    const metal = w.metals[line.id];
    return fill(w.detailWeight, {
      grams: f.grams(holding.milligrams),
      purity: fill(w.purityText[holding.purity.unit], { n: f.number(holding.purity.value) }),
      metal,
      // The editor's price in dollars per gram of pure metal, in cents.
      price: f.moneyExact(
        mul(decimalOf(line.id === "gold" ? settings.goldPricePerGram : settings.silverPricePerGram), ratio(100n)),
      ),
    });
  });
}

/** A decimal the build already checked (settingsFromPrismic), exact. */
const decimalOf = (text: string): Ratio => parseDecimal(text) ?? ratio(0n);

/**
 * The price date, and after hydration how many days old it is (the server cannot know the donor's
 * date). Its own component, so learning the date re-renders this line, not the calculator.
 */
function PriceNote({ f, pricesAsAt }: { f: CalcFormats; pricesAsAt: string }) {
  const [today, setToday] = useState<Date | null>(null);
  useEffect(() => setToday(new Date()), []);
  const age = today ? priceAge(pricesAsAt, today) : null;
  const w = f.words;
  const date = f.date(pricesAsAt);
  const text = !age
    ? fill(w.pricesAsAt, { date })
    : w.intl
      ? fill(w.pricesAge, { date, ago: f.ago(age.days) })
      : age.text;
  const warning = age?.warning && (w.intl ? fill(w.staleWarning, { days: f.number(STALE_AFTER_DAYS) }) : age.warning);
  return (
    <>
      <p className="calc-hint">{text}</p>
      {warning ? <p className="calc-warning">{warning}</p> : null}
    </>
  );
}

export function Result({ f, result: r, metals, pendingErrors, payPath, settings }: ResultProps) {
  const w = f.words;
  const blocked = pendingErrors.length > 0;
  const lineDetails = blocked ? [] : details(r, f, metals, settings);
  return (
    <section className="calc-result" aria-labelledby={RESULT_HEADING_ID}>
      <h2 id={RESULT_HEADING_ID} tabIndex={-1}>
        {w.resultHeading}
      </h2>
      <p className="calc-due" aria-hidden={blocked ? true : undefined}>
        <span className="calc-due-label">{w.zakatDue}</span>{" "}
        <strong>{blocked ? "—" : f.moneyFigure(r.dueCents)}</strong>
      </p>
      <p role="status" className="calc-summary">
        {blocked ? f.count(w.checkFields, pendingErrors.length) : summarySentence(r, f)}
      </p>
      {blocked ? (
        <ul className="calc-error-list">
          {pendingErrors.map((e) => (
            <li key={e.key}>
              <a href={`#${e.id}`}>{fieldLabel(e.key, w, f.number)}</a>
            </li>
          ))}
        </ul>
      ) : (
        <dl className="calc-explain">
          <dt>
            {fill(w.explainNisab, {
              grams: f.grams(BigInt(r.nisab.grams) * 1000n),
              metal: w.metals[r.nisab.basis].toLowerCase(),
              price: f.moneyExact(r.nisab.pricePerGramCents),
            })}
          </dt>
          <dd>{f.money(r.nisab.valueCents)}</dd>
          <dt>{w.totalAssets}</dt>
          <dd>{f.money(r.totalAssetsCents)}</dd>
          <dt>{w.liabilitiesDue}</dt>
          <dd>{f.money(r.totalLiabilitiesCents)}</dd>
          <dt>{w.net}</dt>
          <dd>{f.money(r.netCents)}</dd>
          <dt>{fill(w.rate, { year: w.yearNames[r.rate.yearType] })}</dt>
          <dd>{f.percent(rateOf(r))}</dd>
          <dt>{w.zakatDue}</dt>
          <dd>{f.money(r.dueCents)}</dd>
        </dl>
      )}
      {!blocked && r.lines.length > 0 ? (
        <details className="calc-lines">
          <summary>{w.counted}</summary>
          <ul>
            {r.lines.map((line, i) => (
              <li key={i}>
                {w.labels[line.id]}
                {": "}
                {/* One piece: an Arabic amount is a number and two words, which a phone would split. */}
                <span className="calc-amount">
                  {line.kind === "liability"
                    ? fill(w.less, { amount: f.money(line.zakatableCents) })
                    : f.money(line.zakatableCents)}
                </span>
                {lineDetails[i] ? <span className="calc-hint"> ({lineDetails[i]})</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <PriceNote f={f} pricesAsAt={settings.pricesAsAt} />
      {!blocked && r.dueCents > 0n ? (
        <a className="button button-primary calc-pay" href={payHref(payPath, r.dueCents)}>
          {w.payMyZakat}
        </a>
      ) : !blocked ? (
        <p className="calc-hint">{w.nothingDue}</p>
      ) : null}
    </section>
  );
}
