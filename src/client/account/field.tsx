/**
 * A labelled input whose error sits beside it: aria-invalid plus aria-describedby pointing at the
 * error (and hint), and the error text starts with "Error:" so it never relies on colour alone.
 * Inputs are uncontrolled (forms read FormData on submit) so text typed before hydration is kept.
 */
import type { ReactNode } from "react";
import { useIslandId } from "../island-id.js";

export type FieldErrors = Partial<Record<string, string>>;

export interface FieldProps {
  name: string;
  label: string;
  type?: "email" | "password" | "text" | "tel";
  autoComplete?: string;
  inputMode?: "numeric" | "email" | "text";
  hint?: string;
  defaultValue?: string;
  errors: FieldErrors;
}

export function Field({ name, label, type = "text", autoComplete, inputMode, hint, defaultValue, errors }: FieldProps) {
  const id = useIslandId(`field-${name}`);
  const error = errors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="account-field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={hintId} className="account-hint">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={inputMode}
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        spellCheck={type === "email" ? false : undefined}
        autoCapitalize={type === "email" ? "none" : undefined}
      />
      {error ? (
        <p id={errorId} className="account-field-error">
          <strong>Error:</strong> {error}
        </p>
      ) : null}
    </div>
  );
}

/** Reads a submitted form's text fields. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === "string") values[key] = value;
  });
  return values;
}

/** Removes empty entries so "no errors" is an empty object. */
export function onlyErrors(errors: Record<string, string | null>): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(errors)) if (value) out[key] = value;
  return out;
}

export function Actions({ children }: { children: ReactNode }) {
  return <div className="account-actions">{children}</div>;
}
