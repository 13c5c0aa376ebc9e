/**
 * The calculator's inputs. Each is a labelled text box (not type=number, which refuses "1,200.50"
 * and "$300" in some browsers and silently empties in others); src/zakat parses what was typed.
 * An error sits under its field, tied to it with aria-describedby, and the field is aria-invalid.
 */
import type { ReactNode } from "react";
import { fill } from "./format.js";
import type { CalcFormats } from "./format.js";
import type { MetalRow } from "./form-state.js";

/** Field keys ("cash", "gold.0.grams") become element ids under the island's id prefix (island-id.ts). */
export const fieldId = (base: string, key: string) => `${base}-${key.replace(/\./g, "-")}`;

export interface FieldEvents {
  base: string;
  /** The page language's words and formats. */
  f: CalcFormats;
  /** The field's message in the page's language, once the donor has been shown it. */
  errorOf(key: string): string | undefined;
  onBlur(key: string): void;
}

interface TextFieldProps extends FieldEvents {
  field: string;
  label: ReactNode;
  value: string;
  hint?: string;
  money?: boolean;
  onChange(value: string): void;
}

export function TextField({
  base,
  field,
  label,
  value,
  hint,
  money = true,
  errorOf,
  onBlur,
  onChange,
}: TextFieldProps) {
  const id = fieldId(base, field);
  const error = errorOf(field);
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={error ? "calc-field calc-field-invalid" : "calc-field"}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="calc-hint">
          {hint}
        </p>
      ) : null}
      <div className={money ? "calc-input calc-input-money" : "calc-input"}>
        {money ? <span aria-hidden="true">$</span> : null}
        <input
          id={id}
          name={field}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
          onBlur={() => onBlur(field)}
        />
      </div>
      {error ? (
        <p id={`${id}-error`} className="calc-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface MetalItemProps extends FieldEvents {
  metal: "gold" | "silver";
  index: number;
  row: MetalRow;
  canRemove: boolean;
  onChange(row: MetalRow): void;
  onRemove(): void;
}

export function MetalItem({ metal, index, row, canRemove, onChange, onRemove, ...events }: MetalItemProps) {
  const prefix = `${metal}.${index}`;
  const w = events.f.words;
  const name = fill(w.metalItem[metal], { n: events.f.number(index + 1) });
  const set = (patch: Partial<MetalRow>) => onChange({ ...row, ...patch });
  const unitId = fieldId(events.base, `${prefix}.unit`);
  return (
    <fieldset className="calc-metal">
      <legend>{name}</legend>
      <div className="calc-choice" role="radiogroup" aria-label={fill(w.howToEnter, { item: name.toLowerCase() })}>
        {(["weight", "value"] as const).map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name={fieldId(events.base, `${prefix}.kind`)}
              value={kind}
              checked={row.kind === kind}
              onChange={() => set({ kind })}
            />
            {` ${kind === "weight" ? w.byWeight : w.byValue}`}
          </label>
        ))}
      </div>
      {row.kind === "weight" ? (
        <div className="calc-metal-fields">
          <TextField
            {...events}
            field={`${prefix}.grams`}
            label={w.weightLabel}
            money={false}
            value={row.grams}
            onChange={(grams) => set({ grams })}
          />
          <div className="calc-field">
            <label htmlFor={unitId}>{w.purityIn}</label>
            <select
              id={unitId}
              value={row.purityUnit}
              onChange={(e) => set({ purityUnit: e.target.value as MetalRow["purityUnit"] })}
            >
              <option value="carat">{w.carats}</option>
              <option value="thousandths">{w.thousandths}</option>
            </select>
          </div>
          <TextField
            {...events}
            field={`${prefix}.purity`}
            label={w.purityLabel}
            money={false}
            hint={w.purityHint[row.purityUnit === "carat" ? "carat" : "thousandths"]}
            value={row.purity}
            onChange={(purity) => set({ purity })}
          />
        </div>
      ) : (
        <TextField
          {...events}
          field={`${prefix}.amount`}
          label={w.valueLabel}
          value={row.amount}
          onChange={(amount) => set({ amount })}
        />
      )}
      {canRemove ? (
        <button type="button" className="calc-link-button" onClick={onRemove}>
          {fill(w.remove, { item: name.toLowerCase() })}
        </button>
      ) : null}
    </fieldset>
  );
}
