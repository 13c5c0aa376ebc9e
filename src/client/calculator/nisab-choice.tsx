/**
 * The donor's choice of nisab: silver (the default, as the Australian Fatwa Council recommends) or
 * gold. Each option states its threshold in dollars at the editor's prices and says in one sentence
 * when to choose it; the FAQ and the nisab article tell donors they can switch here. The words are
 * the page language's (words/).
 */
import type { NisabBasis } from "../../zakat/types.js";
import { NISAB_GRAMS } from "../../zakat/settings.js";
import { fill } from "./format.js";
import type { CalcFormats } from "./format.js";

interface NisabChoiceProps {
  base: string;
  f: CalcFormats;
  value: NisabBasis;
  /** The threshold in dollars for each basis, already formatted ("$922.25"). */
  thresholds: Record<NisabBasis, string>;
  onChange(basis: NisabBasis): void;
}

export function NisabChoice({ base, f, value, thresholds, onChange }: NisabChoiceProps) {
  const w = f.words;
  return (
    <fieldset className="calc-year calc-nisab">
      <legend>{w.nisabLegend}</legend>
      {(["silver", "gold"] as const).map((basis) => {
        const hintId = `${base}-nisab-${basis}-hint`;
        return (
          <div key={basis} className="calc-option">
            <label>
              <input
                type="radio"
                name={`${base}-nisab`}
                value={basis}
                checked={value === basis}
                aria-describedby={hintId}
                onChange={() => onChange(basis)}
              />
              {` ${fill(w.nisabOption, {
                metal: w.metals[basis],
                grams: f.grams(BigInt(NISAB_GRAMS[basis]) * 1000n),
                amount: thresholds[basis],
              })}`}
            </label>
            <p id={hintId} className="calc-hint calc-option-hint">
              {w.nisabSentence[basis]}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}
