/**
 * The gift: the fund (on /pay), the amount (presets and the donor's own) or how many people / days /
 * animals, and how often. The total and the dates are in summary.tsx.
 */
import type { FocusEvent } from "react";
import { parseAmount } from "../../payments/money.js";
import type { Frequency, Fund } from "../../payments/types.js";
import { chosenOption, type FundConfig } from "./config.js";
import { fill, type Formats } from "./format.js";
import { MAX_INSTALMENTS, MIN_INSTALMENTS } from "../../payments/schedules.js";
import { SelectField, TextField } from "./field.js";
import type { FormValues } from "./form-state.js";

export interface GiftSectionProps {
  idPrefix: string;
  funds: FundConfig[];
  config: FundConfig;
  values: FormValues;
  errors: Record<string, string>;
  set<K extends keyof FormValues>(key: K, value: FormValues[K]): void;
  chooseFund(fund: Fund): void;
  check(key: keyof FormValues, next?: EventTarget | null): void;
  f: Formats;
}

const instalmentChoices = (f: Formats) =>
  Array.from({ length: MAX_INSTALMENTS - MIN_INSTALMENTS + 1 }, (_, i) => {
    const n = MAX_INSTALMENTS - i;
    return [String(n), f.count(f.words.monthlyPayments, n)] as const;
  });

const dollars = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/**
 * Focusing the amount selects it, so a tap and the donor's own figure replace the default ("250"
 * then "457.50" is 457.50, not 250457.50). The click or tap that focused the field would put the
 * caret where it lands when released: that one release is held back, so the selection stays.
 */
function selectAll(e: FocusEvent<HTMLInputElement>) {
  e.currentTarget.select();
  e.currentTarget.addEventListener("mouseup", (up) => up.preventDefault(), { once: true });
}

export function GiftSection({ idPrefix, funds, config, values, errors, set, chooseFund, check, f }: GiftSectionProps) {
  const w = f.words;
  const id = (name: string) => `${idPrefix}${name}`;
  const q = config.quantity;
  const option = chosenOption(config, values.option);
  const unitCents = option?.unitCents ?? q?.unitCents ?? 0;
  return (
    <fieldset className="don-section">
      <legend>{w.yourGift}</legend>
      {funds.length > 1 ? (
        <div className="don-field">
          <label htmlFor={id("fund")}>{w.whereItGoes}</label>
          <select
            id={id("fund")}
            name={id("fund")}
            value={values.fund}
            onChange={(e) => chooseFund(e.target.value as Fund)}
          >
            {funds.map((f) => (
              <option key={f.fund} value={f.fund}>
                {f.title}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {config.note ? (
        <p className="don-note" id={id("note")}>
          <strong>{w.pleaseNote}</strong>
          {config.note}
        </p>
      ) : null}

      {q ? (
        <>
          {q.options?.length ? (
            <fieldset className="don-choices" aria-describedby={errors.option ? id("option-error") : undefined}>
              <legend>{fill(w.chooseUnit, { unit: q.unitLabel })}</legend>
              {q.options.map((o, i) => (
                <div className="don-choice" key={i}>
                  <input
                    type="radio"
                    id={id(`option-${i}`)}
                    name={id("option")}
                    value={String(i)}
                    checked={values.option === String(i)}
                    onChange={() => set("option", String(i))}
                  />
                  <label htmlFor={id(`option-${i}`)}>
                    {o.label}: {f.money(o.unitCents)}
                  </label>
                </div>
              ))}
              {errors.option ? (
                <p id={id("option-error")} className="don-error">
                  {errors.option}
                </p>
              ) : null}
            </fieldset>
          ) : null}
          <TextField
            id={id("quantity")}
            label={fill(w.numberOf, { units: q.label })}
            hint={fill(w.perUnit, { price: f.money(unitCents), unit: q.unitLabel, min: q.min, max: q.max })}
            value={values.quantity}
            onValue={(v) => set("quantity", v)}
            onBlur={(e) => check("quantity", e.relatedTarget)}
            error={errors.quantity}
            inputMode="numeric"
            autoComplete="off"
          />
          {/^\d+$/.test(values.quantity.trim()) ? (
            <p className="don-multiply" aria-live="polite">
              {Number(values.quantity.trim())} × {f.money(unitCents)}
              {" = "}
              <strong>{f.money(Number(values.quantity.trim()) * unitCents)}</strong>
            </p>
          ) : null}
        </>
      ) : (
        <>
          {config.presets.length ? (
            <div className="don-presets" role="group" aria-label={w.suggestedAmounts}>
              {config.presets.map((p) => {
                const text = dollars(p.amountCents);
                const shown = f.dollars(p.amountCents);
                return (
                  <button
                    type="button"
                    key={p.amountCents}
                    className="don-preset"
                    aria-pressed={values.amount.trim() === text}
                    onClick={() => set("amount", text)}
                  >
                    {shown}
                    {p.label ? <span className="don-preset-label"> {p.label}</span> : null}
                  </button>
                );
              })}
            </div>
          ) : null}
          <TextField
            id={id("amount")}
            label={w.amountLabel}
            hint={
              values.frequency === "monthly-instalments"
                ? w.amountHintInstalments
                : fill(w.amountHint, { min: f.money(config.minimumCents) })
            }
            prefix="$"
            value={values.amount}
            onValue={(v) => set("amount", v)}
            onBlur={(e) => check("amount", e.relatedTarget)}
            onFocus={selectAll}
            error={errors.amount}
            inputMode="decimal"
            autoComplete="off"
          />
        </>
      )}

      {config.frequencies.length > 1 ? (
        <fieldset className="don-choices" aria-describedby={errors.frequency ? id("frequency-error") : undefined}>
          <legend>{w.howOften}</legend>
          {config.frequencies.map((freq: Frequency) => (
            <div className="don-choice" key={freq}>
              <input
                type="radio"
                id={id(`frequency-${freq}`)}
                name={id("frequency")}
                value={freq}
                checked={values.frequency === freq}
                onChange={() => set("frequency", freq)}
              />
              <label htmlFor={id(`frequency-${freq}`)}>{w.frequencies[freq]}</label>
            </div>
          ))}
          {errors.frequency ? (
            <p id={id("frequency-error")} className="don-error">
              {errors.frequency}
            </p>
          ) : null}
        </fieldset>
      ) : errors.frequency ? (
        <p className="don-error">{errors.frequency}</p>
      ) : null}
      {values.frequency === "monthly-instalments" ? (
        <SelectField
          id={id("instalments")}
          label={w.splitInto}
          hint={w.splitHint}
          value={values.instalments}
          onValue={(v) => set("instalments", v)}
          options={instalmentChoices(f)}
          error={errors.instalments}
        />
      ) : null}
    </fieldset>
  );
}

/**
 * Whether an editor's label for a suggested amount only says the amount again ("$1,000", "1,000
 * دولار"): the button shows the amount in the page's own format already, and a screen reader
 * would read it twice. A label with words of its own ("feeds a family") is shown beside it. The
 * template (fundConfigOf) leaves such a label out of the island's settings, so the island's code
 * carries none of this.
 */
export function repeatsAmount(label: string, amountCents: number): boolean {
  const parsed = parseAmount(label.replace(/A\$|AUD|dollars?|دولار\S*|أسترالي|استرالي/gi, ""));
  return parsed.ok && parsed.cents === amountCents;
}
