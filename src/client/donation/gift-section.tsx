/**
 * The gift: the fund (on /pay), the amount (presets and the donor's own) or how many people / days /
 * animals, and how often. The total and the dates are in summary.tsx.
 */
import { formatDollarsAndCents } from "../../payments/money.js";
import type { Frequency, Fund } from "../../payments/types.js";
import { chosenOption, FREQUENCY_LABELS, type FundConfig } from "./config.js";
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
}

const INSTALMENT_CHOICES = Array.from({ length: MAX_INSTALMENTS - MIN_INSTALMENTS + 1 }, (_, i) => {
  const n = String(MAX_INSTALMENTS - i);
  return [n, `${n} monthly payments`] as const;
});

const dollars = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

export function GiftSection({ idPrefix, funds, config, values, errors, set, chooseFund, check }: GiftSectionProps) {
  const id = (name: string) => `${idPrefix}${name}`;
  const q = config.quantity;
  const option = chosenOption(config, values.option);
  const unitCents = option?.unitCents ?? q?.unitCents ?? 0;
  return (
    <fieldset className="don-section">
      <legend>Your gift</legend>
      {funds.length > 1 ? (
        <div className="don-field">
          <label htmlFor={id("fund")}>Where your gift goes</label>
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
          <strong>Please note: </strong>
          {config.note}
        </p>
      ) : null}

      {q ? (
        <>
          {q.options?.length ? (
            <fieldset className="don-choices" aria-describedby={errors.option ? id("option-error") : undefined}>
              <legend>Choose your {q.unitLabel}</legend>
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
                    {o.label}: {formatDollarsAndCents(o.unitCents)}
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
            label={`Number of ${q.label}`}
            hint={`${formatDollarsAndCents(unitCents)} per ${q.unitLabel}, from ${q.min} to ${q.max}.`}
            value={values.quantity}
            onValue={(v) => set("quantity", v)}
            onBlur={(e) => check("quantity", e.relatedTarget)}
            error={errors.quantity}
            inputMode="numeric"
            autoComplete="off"
          />
          {/^\d+$/.test(values.quantity.trim()) ? (
            <p className="don-multiply" aria-live="polite">
              {values.quantity.trim()} × {formatDollarsAndCents(unitCents)}
              {" = "}
              <strong>{formatDollarsAndCents(Number(values.quantity.trim()) * unitCents)}</strong>
            </p>
          ) : null}
        </>
      ) : (
        <>
          {config.presets.length ? (
            <div className="don-presets" role="group" aria-label="Suggested amounts">
              {config.presets.map((p) => {
                const text = dollars(p.amountCents);
                return (
                  <button
                    type="button"
                    key={p.amountCents}
                    className="don-preset"
                    aria-pressed={values.amount.trim() === text}
                    onClick={() => set("amount", text)}
                  >
                    {formatDollarsAndCents(p.amountCents).replace(/\.00$/, "")}
                    {p.label &&
                    p.label !== `$${text}` &&
                    p.label !== formatDollarsAndCents(p.amountCents).replace(/\.00$/, "") ? (
                      <span className="don-preset-label"> {p.label}</span>
                    ) : null}
                  </button>
                );
              })}
            </div>
          ) : null}
          <TextField
            id={id("amount")}
            label="Amount (AUD)"
            hint={
              values.frequency === "monthly-instalments"
                ? "Your whole zakat for the year: we split it into the monthly payments you choose below."
                : `Choose an amount above or enter your own, from ${formatDollarsAndCents(config.minimumCents)}.`
            }
            prefix="$"
            value={values.amount}
            onValue={(v) => set("amount", v)}
            onBlur={(e) => check("amount", e.relatedTarget)}
            error={errors.amount}
            inputMode="decimal"
            autoComplete="off"
          />
        </>
      )}

      {config.frequencies.length > 1 ? (
        <fieldset className="don-choices" aria-describedby={errors.frequency ? id("frequency-error") : undefined}>
          <legend>How often</legend>
          {config.frequencies.map((f: Frequency) => (
            <div className="don-choice" key={f}>
              <input
                type="radio"
                id={id(`frequency-${f}`)}
                name={id("frequency")}
                value={f}
                checked={values.frequency === f}
                onChange={() => set("frequency", f)}
              />
              <label htmlFor={id(`frequency-${f}`)}>{FREQUENCY_LABELS[f]}</label>
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
          label="Split into"
          hint="Payments stop when your whole gift is paid. The first is today, then one each month."
          value={values.instalments}
          onValue={(v) => set("instalments", v)}
          options={INSTALMENT_CHOICES}
          error={errors.instalments}
        />
      ) : null}
    </fieldset>
  );
}
