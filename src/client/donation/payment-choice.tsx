/**
 * "How to pay": card or PayPal, shown only when the build offers PayPal. A schedule PayPal does not
 * take (Friday, the seasons) says so in one sentence instead of offering a choice that would fail.
 */
import { paypalFits } from "../../payments/paypal-schedules.js";
import type { Frequency } from "../../payments/types.js";
import { fill, type Formats } from "./format.js";

export function PaymentChoice({
  idPrefix,
  value,
  frequency,
  onValue,
  f,
}: {
  idPrefix: string;
  value: "card" | "paypal";
  frequency: Frequency;
  onValue(value: "card" | "paypal"): void;
  f: Formats;
}) {
  const w = f.words;
  const fits = paypalFits(frequency);
  return (
    <fieldset className="don-section don-choices">
      <legend>{w.howToPay}</legend>
      {fits ? (
        (["card", "paypal"] as const).map((method) => (
          <div className="don-choice" key={method}>
            <input
              type="radio"
              id={`${idPrefix}pay-${method}`}
              name={`${idPrefix}paymentMethod`}
              value={method}
              checked={value === method}
              onChange={() => onValue(method)}
            />
            <label htmlFor={`${idPrefix}pay-${method}`}>{method === "card" ? w.payByCard : w.payByPayPal}</label>
          </div>
        ))
      ) : (
        <p className="don-hint">{fill(w.paypalCardsOnly, { schedule: w.frequencies[frequency] })}</p>
      )}
    </fieldset>
  );
}
