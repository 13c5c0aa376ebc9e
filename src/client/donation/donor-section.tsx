/** The donor's details for the receipt: name, e-mail, phone, an optional address; anonymity and a dedication. */
import { MAX_DEDICATION_LENGTH } from "../../payments/validate.js";
import { CheckField, TextField } from "./field.js";
import type { FormValues } from "./form-state.js";

export interface DonorSectionProps {
  idPrefix: string;
  values: FormValues;
  errors: Record<string, string>;
  set<K extends keyof FormValues>(key: K, value: FormValues[K]): void;
}

export function DonorSection({ idPrefix, values, errors, set }: DonorSectionProps) {
  const id = (name: string) => `${idPrefix}${name}`;
  const text = (name: "firstName" | "lastName" | "email" | "phone" | "line1" | "line2" | "suburb" | "state" | "postcode" | "country") => ({
    id: id(name),
    value: values[name],
    onValue: (v: string) => set(name, v),
    error: errors[name],
  });
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
        <CheckField id={id("anonymous")} label="Give anonymously" hint="We will keep your name off any public acknowledgement. Your receipt still has it." checked={values.anonymous} onChecked={(v) => set("anonymous", v)} />
        <TextField
          id={id("dedication")}
          label="Dedication"
          optional
          hint={`For example "On behalf of my late father". Up to ${MAX_DEDICATION_LENGTH} characters.`}
          value={values.dedication}
          onValue={(v) => set("dedication", v)}
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
          <TextField {...text("state")} label="State" optional autoComplete="address-level1" />
        </div>
        <div className="don-row">
          <TextField {...text("postcode")} label="Postcode" inputMode="numeric" autoComplete="postal-code" />
          <TextField {...text("country")} label="Country code" hint="AU for Australia." autoComplete="country" maxLength={2} />
        </div>
      </fieldset>
    </>
  );
}
