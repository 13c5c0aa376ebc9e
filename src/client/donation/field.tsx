/**
 * One labelled input with its hint and its error beside it. The error is tied to the input with
 * aria-describedby and aria-invalid, so a screen reader reads it when the field is focused.
 */
import type { FocusEvent, InputHTMLAttributes, ReactNode } from "react";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id"> {
  id: string;
  label: ReactNode;
  value: string;
  onValue(value: string): void;
  error?: string;
  hint?: ReactNode;
  /** Text before the input, e.g. "$". */
  prefix?: string;
  /** The words "(optional)" in the page's language, after the label; absent for a required field. */
  optional?: string;
}

export function TextField({ id, label, value, onValue, error, hint, prefix, optional, ...input }: TextFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional}>
      {(describedBy) => (
        <div className={prefix ? "don-input-prefixed" : undefined}>
          {prefix ? <span aria-hidden="true">{prefix}</span> : null}
          {/* type="text" said, not implied: checkers (HTML_CodeSniffer's H98) read the attribute to
              match an autocomplete token such as given-name to a text field. */}
          <input
            type="text"
            id={id}
            name={id}
            value={value}
            onChange={(e) => onValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            {...input}
          />
        </div>
      )}
    </FieldFrame>
  );
}

/** The label, hint and error around one control; the control gets the ids to describe it by. */
function FieldFrame({
  id,
  label,
  error,
  hint,
  optional,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  optional?: string;
  children(describedBy: string | undefined): ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={error ? "don-field don-field-invalid" : "don-field"}>
      <label htmlFor={id}>
        {label}
        {optional ? <span className="don-optional">{` ${optional}`}</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="don-hint">
          {hint}
        </p>
      ) : null}
      {children(describedBy)}
      {error ? (
        <p id={`${id}-error`} className="don-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function CheckField({
  id,
  label,
  checked,
  onChecked,
  hint,
}: {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChecked(value: boolean): void;
  hint?: ReactNode;
}) {
  return (
    <div className="don-check">
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChecked(e.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="don-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled select with its hint and its error, tied like TextField's. */
export function SelectField({
  id,
  label,
  value,
  onValue,
  options,
  error,
  hint,
  optional,
  placeholder,
  autoComplete,
  onBlur,
}: {
  id: string;
  label: ReactNode;
  value: string;
  onValue(value: string): void;
  options: readonly (readonly [value: string, text: string])[];
  error?: string;
  hint?: ReactNode;
  optional?: string;
  /** A first, empty choice ("Choose…"). */
  placeholder?: string;
  autoComplete?: string;
  onBlur?(event: FocusEvent<HTMLElement>): void;
}) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional}>
      {(describedBy) => (
        <select
          id={id}
          name={id}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete={autoComplete}
        >
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}
