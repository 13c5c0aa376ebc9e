/**
 * The calculator's inputs. Each is a labelled text box (not type=number, which refuses "1,200.50"
 * and "$300" in some browsers and silently empties in others); src/zakat parses what was typed.
 * An error sits under its field, tied to it with aria-describedby, and the field is aria-invalid.
 */
import type { ReactNode } from "react";
import type { MetalRow } from "./form-state.js";

/** Field keys ("cash", "gold.0.grams") become element ids under the island's id prefix (island-id.ts). */
export const fieldId = (base: string, key: string) => `${base}-${key.replace(/\./g, "-")}`;

export interface FieldEvents {
  base: string;
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
  const name = `${metal === "gold" ? "Gold" : "Silver"} item ${index + 1}`;
  const set = (patch: Partial<MetalRow>) => onChange({ ...row, ...patch });
  const unitId = fieldId(events.base, `${prefix}.unit`);
  return (
    <fieldset className="calc-metal">
      <legend>{name}</legend>
      <div className="calc-choice" role="radiogroup" aria-label={`How to enter ${name.toLowerCase()}`}>
        {(["weight", "value"] as const).map((kind) => (
          <label key={kind}>
            <input
              type="radio"
              name={fieldId(events.base, `${prefix}.kind`)}
              value={kind}
              checked={row.kind === kind}
              onChange={() => set({ kind })}
            />
            {kind === "weight" ? " By weight and purity" : " By value"}
          </label>
        ))}
      </div>
      {row.kind === "weight" ? (
        <div className="calc-metal-fields">
          <TextField
            {...events}
            field={`${prefix}.grams`}
            label="Weight in grams"
            money={false}
            value={row.grams}
            onChange={(grams) => set({ grams })}
          />
          <div className="calc-field">
            <label htmlFor={unitId}>Purity in</label>
            <select
              id={unitId}
              value={row.purityUnit}
              onChange={(e) => set({ purityUnit: e.target.value as MetalRow["purityUnit"] })}
            >
              <option value="carat">Carats</option>
              <option value="thousandths">Thousandths (hallmark)</option>
            </select>
          </div>
          <TextField
            {...events}
            field={`${prefix}.purity`}
            label="Purity"
            money={false}
            hint={row.purityUnit === "carat" ? "Carats, like 18 or 22" : "The hallmark number, like 916 or 999"}
            value={row.purity}
            onChange={(purity) => set({ purity })}
          />
        </div>
      ) : (
        <TextField
          {...events}
          field={`${prefix}.amount`}
          label="Value in dollars"
          value={row.amount}
          onChange={(amount) => set({ amount })}
        />
      )}
      {canRemove ? (
        <button type="button" className="calc-link-button" onClick={onRemove}>
          Remove {name.toLowerCase()}
        </button>
      ) : null}
    </fieldset>
  );
}
