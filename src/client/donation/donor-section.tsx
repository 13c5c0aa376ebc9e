/** The donor's details for the receipt: name, e-mail, phone, an optional address; anonymity and a dedication. */
import { MAX_DEDICATION_LENGTH } from "../../payments/field-limits.js";
import { useEffect, useState, type FocusEvent } from "react";
import { AU_STATES } from "./states.js";
import { CheckField, SelectField, TextField } from "./field.js";
import type { FormValues } from "./form-state.js";
import { fill, type Formats } from "./format.js";

export interface DonorSectionProps {
  idPrefix: string;
  values: FormValues;
  errors: Record<string, string>;
  set<K extends keyof FormValues>(key: K, value: FormValues[K]): void;
  /** The donor left a field: check it (and clear its message once it is right). */
  check(key: keyof FormValues, next?: EventTarget | null): void;
  f: Formats;
}

export function DonorSection({ idPrefix, values, errors, set, check, f }: DonorSectionProps) {
  const w = f.words;
  const optional = w.optional;
  const id = (name: string) => `${idPrefix}${name}`;
  const text = (
    name:
      | "firstName"
      | "lastName"
      | "email"
      | "phone"
      | "line1"
      | "line2"
      | "suburb"
      | "state"
      | "postcode"
      | "country",
  ) => ({
    id: id(name),
    value: values[name],
    onValue: (v: string) => set(name, v),
    onBlur: (e: FocusEvent<HTMLElement>) => check(name, e.relatedTarget),
    error: errors[name],
  });
  const australia = values.country === "AU";
  const [countries, setCountries] = useState<readonly (readonly [string, string])[] | null>(null);
  useEffect(() => {
    let live = true;
    import("./countries.js").then(
      (m) => live && setCountries(m.countriesIn(w.locale)),
      () => undefined, // offline: Australia and the kept value stay on offer
    );
    return () => {
      live = false;
    };
  }, [w.locale]);
  const countryOptions =
    countries ??
    (australia
      ? [["AU", w.australia] as const]
      : [["AU", w.australia] as const, [values.country, values.country] as const]);
  return (
    <>
      <fieldset className="don-section">
        <legend>{w.yourDetails}</legend>
        <p className="don-hint">{w.detailsHint}</p>
        <div className="don-row">
          <TextField {...text("firstName")} label={w.firstName} autoComplete="given-name" />
          <TextField {...text("lastName")} label={w.lastName} autoComplete="family-name" />
        </div>
        <TextField {...text("email")} label={w.email} type="email" autoComplete="email" spellCheck={false} />
        <TextField {...text("phone")} label={w.phone} type="tel" autoComplete="tel" />
        <CheckField
          id={id("anonymous")}
          label={w.anonymous}
          hint={w.anonymousHint}
          checked={values.anonymous}
          onChecked={(v) => set("anonymous", v)}
        />
        <CheckField
          id={id("keepUpdated")}
          label={w.keepUpdated}
          checked={values.keepUpdated}
          onChecked={(v) => set("keepUpdated", v)}
        />
        <TextField
          id={id("dedication")}
          label={w.dedication}
          optional={optional}
          hint={
            // Counted once the limit is near, so the donor sees it coming rather than after leaving the field.
            values.dedication.length > MAX_DEDICATION_LENGTH - 20
              ? fill(w.charactersUsed, { n: values.dedication.length, max: MAX_DEDICATION_LENGTH })
              : fill(w.dedicationHint, { max: MAX_DEDICATION_LENGTH })
          }
          value={values.dedication}
          onValue={(v) => set("dedication", v)}
          onBlur={(e) => check("dedication", e.relatedTarget)}
          error={errors.dedication}
          maxLength={MAX_DEDICATION_LENGTH + 50}
        />
      </fieldset>
      <fieldset className="don-section">
        <legend>
          {w.addressLegend} <span className="don-optional">{optional}</span>
        </legend>
        <TextField {...text("line1")} label={w.line1} autoComplete="address-line1" />
        <TextField {...text("line2")} label={w.line2} optional={optional} autoComplete="address-line2" />
        <div className="don-row">
          <TextField {...text("suburb")} label={w.suburb} autoComplete="address-level2" />
          {australia ? (
            <SelectField
              {...text("state")}
              label={w.state}
              optional={optional}
              placeholder={w.choose}
              options={AU_STATES.map(([code, name]) => [code, w.stateNames[code] ?? name] as const)}
              autoComplete="address-level1"
            />
          ) : (
            <TextField {...text("state")} label={w.stateElsewhere} optional={optional} autoComplete="address-level1" />
          )}
        </div>
        <div className="don-row">
          <TextField
            {...text("postcode")}
            label={w.postcode}
            inputMode={australia ? "numeric" : "text"}
            autoComplete="postal-code"
          />
          <SelectField
            {...text("country")}
            onValue={(v) => {
              set("country", v);
              // An Australian state means nothing elsewhere, and free text is not a state code.
              if ((v === "AU") !== australia) set("state", "");
            }}
            label={w.country}
            options={countryOptions}
            autoComplete="country"
          />
        </div>
      </fieldset>
    </>
  );
}
