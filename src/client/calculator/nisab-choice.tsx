/**
 * The donor's choice of nisab: silver (the default, as the Australian Fatwa Council recommends) or
 * gold. Each option states its threshold in dollars at the editor's prices and says in one sentence
 * when to choose it; the FAQ and the nisab article tell donors they can switch here.
 */
import type { NisabBasis } from "../../zakat/types.js";
import { NISAB_GRAMS } from "../../zakat/settings.js";

/** One sentence per basis, read as the option's description. */
export const NISAB_SENTENCE: Record<NisabBasis, string> = {
  silver:
    "Our default, as the Australian Fatwa Council recommends: it is the lower threshold, so more people pay zakat and more people in need receive it.",
  gold: "Choose this if you follow the scholars who use the gold measure: it is the higher threshold, so fewer people owe zakat.",
};

export const NISAB_LEGEND = "Which nisab do you measure your wealth against?";

interface NisabChoiceProps {
  base: string;
  value: NisabBasis;
  /** The threshold in dollars for each basis, already formatted ("$922.25"). */
  thresholds: Record<NisabBasis, string>;
  onChange(basis: NisabBasis): void;
}

export function NisabChoice({ base, value, thresholds, onChange }: NisabChoiceProps) {
  return (
    <fieldset className="calc-year calc-nisab">
      <legend>{NISAB_LEGEND}</legend>
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
              {` ${basis === "silver" ? "Silver" : "Gold"}: ${NISAB_GRAMS[basis]} g, ${thresholds[basis]}`}
            </label>
            <p id={hintId} className="calc-hint calc-option-hint">
              {NISAB_SENTENCE[basis]}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}
