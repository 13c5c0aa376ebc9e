/**
 * The contact page's enquiry form (issue 39): name, e-mail, topic
 * and message, posted to the service's POST /enquiries, which stores the enquiry, sends it to donor
 * care and acknowledges it to the sender. Checked here first (the service checks again); a refusal
 * is the service's coded error, said beside the field at fault or above the button, and what was
 * typed stays. The same message sent again (a double click, "try again" after a network error) goes
 * with the same Idempotency-Key, so it is one enquiry. `website` is the honeypot: hidden from
 * people and from the tab order, a bot fills it and the service keeps nothing.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useIslandPrefix } from "../island-id.js";
import { createPaymentsClient, type PaymentsClient } from "../../payments/client.js";
import { CONTACT_LIMITS, type EnquiryRequest, type EnquiryTopic } from "../../payments/contact.js";
import { PaymentsApiError, PaymentsTimeoutError } from "../../payments/errors.js";
import { SelectField, TextField } from "../donation/field.js";
import type { ContactWords } from "../contact/words.js";

export interface ContactFormProps {
  /** The service's URL (PAYMENTS_API_URL); without one the template renders no form. */
  apiUrl: string;
  words: ContactWords;
}

type Values = Omit<EnquiryRequest, "topic"> & { topic: string };
const EMPTY: Values = { name: "", email: "", topic: "", message: "", website: "" };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ""));

/** What the form checks before sending: the service's own rules, said in the form's words. */
export function checkEnquiry(v: Values, w: ContactWords): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of ["name", "email", "topic", "message"] as const)
    if (!v[field].trim()) errors[field] = w.required[field]!;
  const limits = { name: CONTACT_LIMITS.name, email: CONTACT_LIMITS.email, message: CONTACT_LIMITS.message };
  for (const [field, max] of Object.entries(limits))
    if (!errors[field] && v[field as keyof typeof limits].trim().length > max) errors[field] = fill(w.tooLong, { max });
  if (!errors.email && !EMAIL.test(v.email.trim())) errors.email = w.invalidEmail;
  return errors;
}

const newKey = () => crypto.randomUUID();

export default function ContactForm({ apiUrl, words: w }: ContactFormProps) {
  const id = `${useIslandPrefix()}contact-`;
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<{ text: string; code: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const client = useRef<PaymentsClient | null>(null);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  // Once the thank-you heading is in the page: the button that had focus went with the form, and a
  // frame requested before React committed the heading could find no heading to focus.
  useEffect(() => {
    if (sent) doneRef.current?.focus();
  }, [sent]);

  const set = (field: keyof Values, value: string) => setValues((v) => ({ ...v, [field]: value }));
  const focusFirstError = () =>
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    setAlert(null);
    const found = checkEnquiry(values, w);
    setErrors(found);
    if (Object.keys(found).length) return focusFirstError();
    const body: EnquiryRequest = {
      name: values.name.trim(),
      email: values.email.trim(),
      topic: values.topic as EnquiryTopic,
      message: values.message.trim(),
      website: values.website,
    };
    const json = JSON.stringify(body);
    if (attempt.current?.body !== json) attempt.current = { body: json, key: newKey() };
    client.current ??= createPaymentsClient({ baseUrl: apiUrl });
    setSending(true);
    try {
      const { enquiryId } = await client.current.sendEnquiry(body, attempt.current.key);
      setSent(enquiryId);
    } catch (error) {
      if (error instanceof PaymentsApiError && error.fields.length) {
        const byField: Record<string, string> = {};
        for (const f of error.fields) byField[f.field] ??= f.message;
        setErrors(byField);
        focusFirstError();
        return;
      }
      const code =
        error instanceof PaymentsApiError ? error.code : error instanceof PaymentsTimeoutError ? "timeout" : "network";
      const text =
        error instanceof PaymentsApiError
          ? fill(w.failed, { detail: error.message })
          : code === "timeout"
            ? w.timeout
            : w.offline;
      setAlert({ text, code });
      requestAnimationFrame(() => alertRef.current?.focus());
    } finally {
      setSending(false);
    }
  }

  if (sent)
    return (
      <section className="contact-form" aria-labelledby={`${id}sent`}>
        <h2 id={`${id}sent`} tabIndex={-1} ref={doneRef}>
          {w.sent}
        </h2>
        <p data-enquiry-id={sent}>{fill(w.sentDetail, { id: sent })}</p>
      </section>
    );
  const field = (name: "name" | "email") => ({
    id: `${id}${name}`,
    value: values[name],
    onValue: (v: string) => set(name, v),
    error: errors[name],
  });
  return (
    <section className="contact-form" aria-labelledby={`${id}heading`}>
      <h2 id={`${id}heading`}>{w.heading}</h2>
      <p className="don-hint">{w.intro}</p>
      <form ref={formRef} noValidate onSubmit={submit} aria-busy={sending || undefined}>
        <TextField {...field("name")} label={w.name} autoComplete="name" maxLength={CONTACT_LIMITS.name + 20} />
        <TextField
          {...field("email")}
          label={w.email}
          type="email"
          autoComplete="email"
          spellCheck={false}
          maxLength={CONTACT_LIMITS.email + 20}
        />
        <SelectField
          id={`${id}topic`}
          label={w.topic}
          value={values.topic}
          onValue={(v) => set("topic", v)}
          placeholder={w.choose}
          options={Object.entries(w.topics)}
          error={errors.topic}
        />
        <div className={errors.message ? "don-field don-field-invalid" : "don-field"}>
          <label htmlFor={`${id}message`}>{w.message}</label>
          <textarea
            id={`${id}message`}
            name={`${id}message`}
            rows={6}
            value={values.message}
            onChange={(e) => set("message", e.target.value)}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? `${id}message-error` : undefined}
          />
          {errors.message ? (
            <p id={`${id}message-error`} className="don-error">
              {errors.message}
            </p>
          ) : null}
        </div>
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor={`${id}website`}>Website</label>
          <input
            id={`${id}website`}
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={values.website}
            onChange={(e) => set("website", e.target.value)}
          />
        </div>
        {alert ? (
          <p className="don-alert" role="alert" tabIndex={-1} ref={alertRef} data-error-code={alert.code}>
            {alert.text}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={sending}>
          {sending ? w.sending : w.send}
        </button>
      </form>
    </section>
  );
}
