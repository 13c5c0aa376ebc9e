/**
 * The donation form: the gift, the donor, the summary, then the card step. What happens on
 * "Continue to payment":
 *   1. validateDonation (shared with the backend) → a message beside each field at fault;
 *   2. POST /donations with the attempt's idempotency key (the same key while the gift is
 *      unchanged, so a double click or "Try again" never creates a second donation) and, at the
 *      same time, Stripe.js is loaded (only now, never before the donor proceeds);
 *   3. the Payment Element with the client secret (payment-step.tsx).
 * Every value is kept in sessionStorage, so nothing typed is lost on an error, a reload or a
 * return from a failed payment.
 */
import { useEffect, useRef, useState } from "react";
import { useIslandId } from "../island-id.js";
import type { Stripe } from "@stripe/stripe-js";
import { createPaymentsClient, type PaymentsClient } from "../../payments/client.js";
import { PaymentsApiError, PaymentsError } from "../../payments/errors.js";
import { createAttemptKeys, type AttemptKeys } from "../../payments/idempotency.js";
import { formatDollarsAndCents } from "../../payments/money.js";
import { validateDonation } from "../../payments/validate.js";
import type { DonationCreated, FieldError, Fund } from "../../payments/types.js";
import { loadStripeJs, StripeLoadError } from "../stripe/load-stripe.js";
import { rulesOf, type DonationIslandProps } from "./config.js";
import { CheckField } from "./field.js";
import { amountFromQuery, fundDefaults, initialValues, LAST_ATTEMPT_KEY, loadSaved, save, toDonationForm, type FormValues } from "./form-state.js";
import { DonorSection } from "./donor-section.js";
import { GiftSection } from "./gift-section.js";
import { PaymentStep } from "./payment-step.js";
import { createdFigures, feeFor, previewFigures, Summary } from "./summary.js";

type Phase = "form" | "creating" | "pay";

/** The form's key for a field path: "donor.address.postcode" → "postcode", "quantity.optionId" → "option". */
const keyOf = (field: string) => {
  if (field === "season") return "frequency";
  if (field === "quantity.optionId") return "option";
  // The unit price is shown beside the number (and on the option): the message goes there.
  if (field === "quantity.unitCents") return "quantity";
  return field.split(".").pop()!;
};

function fieldErrors(list: FieldError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of list) out[keyOf(e.field)] ??= e.message;
  return out;
}

const sessionStore = () => {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
};

/** The donor's own date, YYYY-MM-DD (local getters: the day they think it is). */
function localIsoDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/**
 * Hydrate while the page loads only when the browser changes what the server rendered: values kept
 * from an earlier visit, an amount or fund in the address (from the calculator), or a schedule
 * whose dates depend on today. Otherwise the island hydrates when the donor first uses the form
 * (src/client/hydrate.ts); the single "charged on" date of a one-off gift appears then.
 */
export function hydrateNow({ funds, formPath }: DonationIslandProps): boolean {
  if (loadSaved(sessionStore(), formPath, funds)) return true;
  const query = new URLSearchParams(window.location.search);
  if (query.has("amount") || query.has("fund")) return true;
  const figures = previewFigures(initialValues(funds[0]!), funds[0]!, localIsoDate(new Date()));
  return figures !== null && (figures.charges.length > 1 || figures.problem !== undefined);
}

export default function DonationForm({ funds, formPath, thankYouPath, payments }: DonationIslandProps) {
  const idPrefix = useIslandId("don-");
  const [values, setValues] = useState<FormValues>(() => initialValues(funds[0]!));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>("form");
  const [today, setToday] = useState<string | null>(null);
  const [created, setCreated] = useState<DonationCreated | null>(null);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const restored = useRef(false);
  const busy = useRef(false);
  const keys = useRef<AttemptKeys | null>(null);
  const client = useRef<PaymentsClient | null>(null);
  const createdFor = useRef<{ key: string; created: DonationCreated } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const config = funds.find((f) => f.fund === values.fund) ?? funds[0]!;

  // After hydration only (the server knows neither the donor's date nor their storage).
  useEffect(() => {
    setToday(localIsoDate(new Date()));
    const saved = loadSaved(sessionStore(), formPath, funds);
    const fromQuery = amountFromQuery(window.location.search);
    setValues((v) => {
      let next = saved ?? v;
      const fund = new URLSearchParams(window.location.search).get("fund");
      if (!saved && fund && funds.some((f) => f.fund === fund)) next = { ...next, ...fundDefaults(funds.find((f) => f.fund === fund)!) };
      if (fromQuery !== null && !funds.find((f) => f.fund === next.fund)?.quantity) next = { ...next, amount: fromQuery };
      return next;
    });
    restored.current = true;
  }, [funds, formPath]);

  useEffect(() => {
    if (restored.current) save(sessionStore(), formPath, values);
  }, [values, formPath]);

  useEffect(() => {
    if (alert) alertRef.current?.focus();
  }, [alert]);

  function set<K extends keyof FormValues>(key: K, value: FormValues[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    // The message stays until the field is fixed and the donor tries again; only its own field clears.
    setErrors((e) => {
      // Another option changes the price, so a price message beside the number goes too.
      const gone: string[] = key === "option" ? ["option", "quantity"] : [key];
      if (!gone.some((k) => k in e)) return e;
      return Object.fromEntries(Object.entries(e).filter(([k]) => !gone.includes(k)));
    });
  }

  function chooseFund(fund: Fund) {
    const next = funds.find((f) => f.fund === fund)!;
    setValues((v) => ({ ...v, ...fundDefaults(next) }));
    setErrors({});
  }

  function focusFirstError() {
    requestAnimationFrame(() => {
      const form = formRef.current;
      const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"], fieldset[aria-describedby] input');
      (invalid ?? form?.querySelector<HTMLElement>(".don-error"))?.focus();
    });
  }

  async function proceed() {
    if (busy.current) return; // a second click while the first is in flight does nothing
    setAlert(null);
    if (!payments) {
      setAlert("Card payments are not available on this copy of the site. Please call us or use the bank details on our contact page.");
      return;
    }
    const result = validateDonation(toDonationForm(values, config), rulesOf(config));
    if (!result.ok) {
      setErrors(fieldErrors(result.errors));
      focusFirstError();
      return;
    }
    setErrors({});
    busy.current = true;
    setPhase("creating");
    keys.current ??= createAttemptKeys();
    client.current ??= createPaymentsClient({ baseUrl: payments.apiUrl, timeoutMs: payments.timeoutMs });
    const key = keys.current.keyFor(result.request);
    // Stripe.js starts loading now, alongside the request: the donor has chosen to pay.
    const stripeLoad = stripe ? Promise.resolve(stripe) : loadStripeJs(payments.publishableKey);
    stripeLoad.catch(() => undefined); // reported below, after the API's answer
    try {
      const donation = createdFor.current?.key === key ? createdFor.current.created : await client.current.createDonation(result.request, key);
      createdFor.current = { key, created: donation };
      const loaded = await stripeLoad;
      setStripe(loaded);
      setCreated(donation);
      setPhase("pay");
    } catch (error) {
      setPhase("form");
      if (error instanceof PaymentsApiError && error.fields.length) setErrors(fieldErrors(error.fields));
      if (error instanceof StripeLoadError) {
        // For whoever debugs it: the donor sees the message, the console shows why.
        console.warn(error.message, error.cause);
        setAlert(error.donorMessage);
      }
      else if (error instanceof PaymentsError) setAlert(error.message);
      else setAlert(`Something went wrong (${(error as Error).message}). Nothing was charged. Please try again.`);
    } finally {
      busy.current = false;
    }
  }

  function beforeConfirm() {
    try {
      sessionStore()?.setItem(LAST_ATTEMPT_KEY, JSON.stringify({ path: formPath, donationId: created?.donationId }));
    } catch {
      // not kept: the thank-you page falls back to the fund's page
    }
  }

  const figures = phase === "pay" && created ? createdFigures(created) : previewFigures(values, config, today);
  const fee = feeFor(values, config);
  const returnUrl = created && typeof window !== "undefined" ? new URL(`${thankYouPath}?donation=${encodeURIComponent(created.donationId)}`, window.location.href).href : "";
  return (
    <div className="donation-form">
      <h2 id={`${idPrefix}heading`}>Give now</h2>
      <div ref={alertRef} tabIndex={-1} className="don-alert-slot">
        {alert ? (
          <div className="don-alert" role="alert">
            <p>{alert}</p>
          </div>
        ) : null}
      </div>
      <form
        ref={formRef}
        noValidate
        aria-labelledby={`${idPrefix}heading`}
        onSubmit={(e) => {
          e.preventDefault();
          void proceed();
        }}
        hidden={phase === "pay"}
      >
        <GiftSection idPrefix={idPrefix} funds={funds} config={config} values={values} errors={errors} set={set} chooseFund={chooseFund} />
        <DonorSection idPrefix={idPrefix} values={values} errors={errors} set={set} />
        <fieldset className="don-section">
          <legend>Card fee</legend>
          <CheckField
            id={`${idPrefix}coverFees`}
            label={fee !== null ? `Add ${formatDollarsAndCents(fee)} to cover the card fee` : "Cover the card fee"}
            hint="So that we receive your whole gift. Card fees are 1.7% + 30c."
            checked={values.coverFees}
            onChecked={(v) => set("coverFees", v)}
          />
        </fieldset>
        {figures ? <Summary figures={figures} headingId={`${idPrefix}summary`} /> : null}
        <div className="don-actions">
          <button type="submit" className="button" disabled={phase === "creating"} aria-disabled={phase === "creating" ? true : undefined}>
            {phase === "creating" ? "Preparing secure payment…" : alert ? "Try again" : "Continue to payment"}
          </button>
        </div>
        <p className="don-hint">Nothing is charged until you confirm on the next step.</p>
      </form>
      {phase === "pay" && created && stripe ? (
        <>
          {figures ? <Summary figures={figures} headingId={`${idPrefix}summary-final`} /> : null}
          <PaymentStep idPrefix={idPrefix} stripe={stripe} created={created} returnUrl={returnUrl} beforeConfirm={beforeConfirm} onBack={() => setPhase("form")} />
        </>
      ) : null}
    </div>
  );
}
