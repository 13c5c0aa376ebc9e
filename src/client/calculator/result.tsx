/**
 * The result panel: one sentence in a polite live region (so a screen reader hears the outcome
 * after each change without being interrupted), the explanation as a list, the price date, and
 * "Pay my zakat" when something is due.
 */
import { useEffect, useState } from "react";
import type { ZakatResult } from "../../zakat/types.js";
import { formatAud, formatIsoDate } from "../../zakat/format.js";
import { priceAge } from "../../zakat/price-age.js";
import { payHref } from "./form-state.js";
import { fieldLabel } from "./groups.js";

export interface ResultProps {
  result: ZakatResult;
  /** Fields whose message is showing: the result waits for them. */
  pendingErrors: { key: string; id: string }[];
  payPath: string;
  /** The editor's price date, YYYY-MM-DD. */
  pricesAsAt: string;
}

/** The result's heading: the step the donor is taken to by "See my result" and the running bar. */
export const RESULT_HEADING_ID = "calc-result-heading";

export function summarySentence(r: ZakatResult): string {
  const { text } = r;
  const head = `Assets ${text.totalAssets} less liabilities ${text.totalLiabilities} leaves ${text.net}`;
  if (!r.aboveNisab) return `${head}, below the nisab of ${text.nisab}: no zakat is due.`;
  return `${head}, at or above the nisab of ${text.nisab}: zakat due at ${r.rate.percentText} is ${text.due}.`;
}

/**
 * The price date, and after hydration how many days old it is (the server cannot know the donor's
 * date). Its own component, so learning the date re-renders this line, not the calculator.
 */
function PriceNote({ pricesAsAt }: { pricesAsAt: string }) {
  const [today, setToday] = useState<Date | null>(null);
  useEffect(() => setToday(new Date()), []);
  const age = today ? priceAge(pricesAsAt, today) : null;
  return (
    <>
      <p className="calc-hint">{age ? age.text : `Prices as at ${formatIsoDate(pricesAsAt)}`}</p>
      {age?.warning ? <p className="calc-warning">{age.warning}</p> : null}
    </>
  );
}

export function Result({ result: r, pendingErrors, payPath, pricesAsAt }: ResultProps) {
  const blocked = pendingErrors.length > 0;
  const year = r.rate.yearType === "lunar" ? "lunar year" : "solar year";
  return (
    <section className="calc-result" aria-labelledby={RESULT_HEADING_ID}>
      <h2 id={RESULT_HEADING_ID} tabIndex={-1}>
        Your zakat
      </h2>
      <p className="calc-due" aria-hidden={blocked ? true : undefined}>
        <span className="calc-due-label">Zakat due</span> <strong>{blocked ? "—" : r.text.due}</strong>
      </p>
      <p role="status" className="calc-summary">
        {blocked
          ? `Check ${pendingErrors.length === 1 ? "the field" : `${pendingErrors.length} fields`} marked in the form; the result will update when ${pendingErrors.length === 1 ? "it is" : "they are"} fixed.`
          : summarySentence(r)}
      </p>
      {blocked ? (
        <ul className="calc-error-list">
          {pendingErrors.map((e) => (
            <li key={e.key}>
              <a href={`#${e.id}`}>{fieldLabel(e.key)}</a>
            </li>
          ))}
        </ul>
      ) : (
        <dl className="calc-explain">
          <dt>
            Nisab ({r.nisab.grams} g of {r.nisab.basis} at {r.nisab.pricePerGramText} per gram)
          </dt>
          <dd>{r.text.nisab}</dd>
          <dt>Total zakatable assets</dt>
          <dd>{r.text.totalAssets}</dd>
          <dt>Liabilities due now</dt>
          <dd>{r.text.totalLiabilities}</dd>
          <dt>Net zakatable wealth</dt>
          <dd>{r.text.net}</dd>
          <dt>Rate ({year})</dt>
          <dd>{r.rate.percentText}</dd>
          <dt>Zakat due</dt>
          <dd>{r.text.due}</dd>
        </dl>
      )}
      {!blocked && r.lines.length > 0 ? (
        <details className="calc-lines">
          <summary>What was counted</summary>
          <ul>
            {r.lines.map((line, i) => (
              <li key={i}>
                {line.label}: {line.kind === "liability" ? "less " : ""}
                {formatAud(line.zakatableCents)}
                {line.detail ? <span className="calc-hint"> ({line.detail})</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <PriceNote pricesAsAt={pricesAsAt} />
      {!blocked && r.dueCents > 0n ? (
        <a className="button button-primary calc-pay" href={payHref(payPath, r.dueCents)}>
          Pay my zakat
        </a>
      ) : !blocked ? (
        <p className="calc-hint">Nothing is due, so there is nothing to pay. You can still give sadaqah at any time.</p>
      ) : null}
    </section>
  );
}
