/**
 * The running total on a phone: a bar at the bottom of the viewport with the amount due so far and
 * "Pay this", so the donor sees the result while filling in ten sections instead of only at the end.
 * It steps aside while the full result is on screen (which has its own "Pay my zakat"). On wide
 * screens the result panel itself stays in view beside the form, and the bar is not shown (CSS).
 * The page keeps focused fields clear of it with scroll-padding (calculator.css, WCAG 2.4.11).
 * Not a live region: the result's sentence already is one.
 */
import { useEffect, useState } from "react";
import type { ZakatResult } from "../../zakat/types.js";
import type { CalcFormats } from "./format.js";
import { payHref } from "./form-state.js";

/** The share of the result panel on screen at which the bar steps aside. */
const SHOWN_ENOUGH = 0.25;

interface RunningBarProps {
  f: CalcFormats;
  result: ZakatResult;
  /** A field's message is showing: the total waits for it. */
  blocked: boolean;
  payPath: string;
  onShowResult(): void;
}

export function RunningBar({ f, result, blocked, payPath, onShowResult }: RunningBarProps) {
  const w = f.words;
  const [resultInView, setResultInView] = useState(false);
  useEffect(() => {
    const panel = document.querySelector(".calc-result");
    if (!panel || typeof IntersectionObserver === "undefined") return;
    // The ratio, not isIntersecting: scrolling from a third of the panel in view to a sliver of it
    // crosses the threshold while still "intersecting", and the bar must come back then.
    // The LAST entry: a busy phone may run this callback once for several frames, with every entry
    // since the last run, oldest first. The first one would leave the bar hidden for a result that
    // has come and gone again (opening the last section pushes it away): neither is on screen.
    const observer = new IntersectionObserver(
      (entries) => setResultInView(entries[entries.length - 1]!.intersectionRatio >= SHOWN_ENOUGH),
      { threshold: SHOWN_ENOUGH },
    );
    observer.observe(panel);
    return () => observer.disconnect();
  }, []);
  const due = !blocked && result.dueCents > 0n;
  return (
    <div className={resultInView ? "calc-bar calc-bar-away" : "calc-bar"}>
      <p className="calc-bar-total">
        {w.barDue}
        <strong className={blocked ? "calc-bar-pending" : undefined}>
          {/* A figure, as in the result: beside "Pay this" on a phone, the currency's name may take a line of its own. */}
          {blocked ? w.barCheck : f.moneyFigure(result.dueCents)}
        </strong>
      </p>
      {due ? (
        <a className="button button-primary calc-bar-action" href={payHref(payPath, result.dueCents)}>
          {w.payThis}
        </a>
      ) : (
        <button type="button" className="button button-secondary calc-bar-action" onClick={onShowResult}>
          {w.seeDetails}
        </button>
      )}
    </div>
  );
}
