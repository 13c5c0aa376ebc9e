/** The donor's details for the receipt: name, e-mail, phone, an optional address; anonymity and a dedication. */
import { MAX_DEDICATION_LENGTH } from "../../payments/validate.js";
import { useEffect, useState, type FocusEvent } from "react";
import { AU_STATES } from "./states.js";
import { CheckField, SelectField, TextField } from "./field.js";
import type { FormValues } from "./form-state.js";

export interface DonorSectionProps {
  idPrefix: string;
  values: FormValues;
  errors: Record<string, string>;
  set<K extends keyof FormValues>(key: K, value: FormValues[K]): void;
  /** The donor left a field: check it (and clear its message once it is right). */
  check(key: keyof FormValues, next?: EventTarget | null): void;
}

export function DonorSection({ idPrefix, values, errors, set, check }: DonorSectionProps) {
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
      (m) => live && setCountries(m.COUNTRIES),
      () => undefined, // offline: Australia and the kept value stay on offer
    );
    return () => {
      live = false;
    };
  }, []);
  const countryOptions =
    countries ??
    (australia
      ? [["AU", "Australia"] as const]
      : [["AU", "Australia"] as const, [values.country, values.country] as const]);
  return (
    <>
      <fieldset className="don-section">
        <legend>Your details</legend>
        <p className="don-hint">We send your receipt by e-mail. All fields are required unless marked optional.</p>
        <div className="don-row">
          <TextField {...text("firstName")} label="First name" autoComplete="given-name" />
          <TextField {...text("lastName")} label="Last name" autoComplete="family-name" />
        </div>
        <TextField {...text("email")} label="E-mail address" type="email" autoComplete="email" spellCheck={false} />
        <TextField {...text("phone")} label="Phone number" type="tel" autoComplete="tel" />
        <CheckField
          id={id("anonymous")}
          label="Give anonymously"
          hint="We will keep your name off any public acknowledgement. Your receipt still has it."
          checked={values.anonymous}
          onChecked={(v) => set("anonymous", v)}
        />
        <TextField
          id={id("dedication")}
          label="Dedication"
          optional
          hint={`For example "On behalf of my late father". Up to ${MAX_DEDICATION_LENGTH} characters.`}
          value={values.dedication}
          onValue={(v) => set("dedication", v)}
          onBlur={(e) => check("dedication", e.relatedTarget)}
          error={errors.dedication}
          maxLength={MAX_DEDICATION_LENGTH + 50}
        />
      </fieldset>
      <fieldset className="don-section">
        <legend>
          Postal address for the receipt <span className="don-optional">(optional)</span>
        </legend>
        <TextField {...text("line1")} label="Street address" autoComplete="address-line1" />
        <TextField {...text("line2")} label="Unit, building or floor" optional autoComplete="address-line2" />
        <div className="don-row">
          <TextField {...text("suburb")} label="Suburb or town" autoComplete="address-level2" />
          {australia ? (
            <SelectField
              {...text("state")}
              label="State or territory"
              optional
              placeholder="Choose…"
              options={AU_STATES.map(([code, name]) => [code, name] as const)}
              autoComplete="address-level1"
            />
          ) : (
            <TextField {...text("state")} label="State, province or region" optional autoComplete="address-level1" />
          )}
        </div>
        <div className="don-row">
          <TextField
            {...text("postcode")}
            label="Postcode"
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
            label="Country"
            options={countryOptions}
            autoComplete="country"
          />
        </div>
      </fieldset>
    </>
  );
}
