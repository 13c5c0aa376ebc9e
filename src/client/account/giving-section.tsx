/**
 * The signed-in donor's giving on /account: history (fund, amount, date, schedule, status) with a
 * receipt per paid donation, regular gifts managed in place, and the tax summary of a financial
 * year. A receipt or the summary opens as a printable document in place of the lists; closing it
 * puts focus back on the button that opened it. Without an account API (NZF_ACCOUNT_API_URL not
 * set at build time) it says plainly what it cannot show and where to ask instead.
 */
import { useEffect, useRef, useState } from "react";
import { useIslandId } from "../island-id.js";
import type { AccountApi } from "./account-api.js";
import { Actions } from "./field.js";
import {
  chargeOf,
  donationStatusName,
  financialYearName,
  fundName,
  longDate,
  money,
  scheduleName,
  type DonationData,
} from "./giving-queries.js";
import { ReceiptDocument, SummaryDocument, TaxTotals, type ReceiptIssuer } from "./printable.js";
import { type PayPalReturn, takePayPalReturn } from "./paypal-return.js";
import { RegularGifts } from "./regular-gifts.js";
import { useGiving } from "./use-giving.js";

export const NO_ACCOUNT_API =
  "Your giving history, receipts and regular gifts cannot be shown on this site yet. For a receipt, or to pause, change or cancel a regular gift, please contact our donor care team.";

/** A failed charge the service will try again says when (the days from the account API's retryDates). */
const withRetries = (status: string, retryDates: string[]) =>
  retryDates.length
    ? `${status}${status.endsWith(".") ? "" : "."} We will try again on ${retryDates.map(longDate).join(", ")}.`
    : status;

export function GivingSection({
  api,
  donorEmail,
  issuer,
}: {
  api: AccountApi | null;
  donorEmail: string;
  issuer?: ReceiptIssuer;
}) {
  if (!api)
    return (
      <section className="account-giving" aria-label="Your giving">
        <p role="status">{NO_ACCOUNT_API}</p>
      </section>
    );
  return <Giving api={api} donorEmail={donorEmail} issuer={issuer ?? {}} />;
}

/**
 * Gifts given without signing in, with this account's verified e-mail, join the account only when
 * the donor asks: pressing the button is that request. The sentence after it is the API's.
 */
function GuestGiftsOffer({ count, claim }: { count: number; claim: () => Promise<string> }) {
  const [state, setState] = useState<{ busy: boolean; said?: string; error?: string }>({ busy: false });
  if (count === 0 && !state.said) return null;
  const gifts = count === 1 ? "1 gift" : `${count} gifts`;
  return (
    <div className="account-offer">
      {count > 0 ? (
        <>
          <p>
            We found {gifts} given with your e-mail address while you were not signed in. Add{" "}
            {count === 1 ? "it" : "them"} to your account to see {count === 1 ? "it" : "them"} here with
            {count === 1 ? " its receipt" : " their receipts"}.
          </p>
          <Actions>
            <button
              type="button"
              aria-disabled={state.busy}
              onClick={() => {
                if (state.busy) return;
                setState({ busy: true });
                claim().then(
                  (said) => setState({ busy: false, said }),
                  (error: Error) => setState({ busy: false, error: error.message }),
                );
              }}
            >
              Add {gifts} to my account
            </button>
          </Actions>
        </>
      ) : null}
      {state.error ? (
        <p role="alert" className="account-error-text">
          <strong>Error:</strong> {state.error}
        </p>
      ) : null}
      <p role="status">{state.said ?? ""}</p>
    </div>
  );
}

type Open = { kind: "receipt"; donation: DonationData } | { kind: "summary" } | null;

function Giving({ api, donorEmail, issuer }: { api: AccountApi; donorEmail: string; issuer: ReceiptIssuer }) {
  const { giving, summary, year, setYear, years, changeGift, reloadGift, claimGuestGifts } = useGiving(api);
  // Back from PayPal's window about a new amount: said beside that gift (read after hydration).
  const [returned, setReturned] = useState<PayPalReturn | null>(null);
  useEffect(() => setReturned(takePayPalReturn()), []);
  const [open, setOpen] = useState<Open>(null);
  const opener = useRef<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const yearId = useIslandId("tax-year");

  // Back from a document: focus returns to the button that opened it.
  useEffect(() => {
    if (open || !opener.current) return;
    root.current?.querySelector<HTMLElement>(`[data-opens="${opener.current}"]`)?.focus();
    opener.current = null;
  }, [open]);

  const show = (next: Exclude<Open, null>, key: string) => {
    opener.current = key;
    setOpen(next);
  };

  if (open?.kind === "receipt")
    return (
      <div ref={root} className="account-giving">
        <ReceiptDocument
          donation={open.donation}
          donorEmail={donorEmail}
          issuer={issuer}
          onClose={() => setOpen(null)}
        />
      </div>
    );
  if (open?.kind === "summary" && summary.state === "ready")
    return (
      <div ref={root} className="account-giving">
        <SummaryDocument
          summary={summary.value}
          donorEmail={donorEmail}
          issuer={issuer}
          onClose={() => setOpen(null)}
        />
      </div>
    );

  return (
    <div ref={root} className="account-giving">
      <h3>Your giving history</h3>
      <GuestGiftsOffer count={giving.state === "ready" ? giving.value.claimable : 0} claim={claimGuestGifts} />
      {giving.state === "loading" ? (
        <p role="status">Loading your donations…</p>
      ) : giving.state === "failed" ? (
        <p role="alert" className="account-error-text">
          <strong>Error:</strong> {giving.message}
        </p>
      ) : giving.value.donations.length === 0 ? (
        <p>
          No donations yet. Donations you make while signed in show here, with a receipt for each; gifts given with your
          e-mail address without signing in can be added here.
        </p>
      ) : (
        <ul className="account-donations">
          {giving.value.donations.map((d) => (
            <li key={d.id} className="account-donation">
              <dl className="account-facts">
                <dt>Fund</dt>
                <dd>{fundName(d.fund)}</dd>
                <dt>Amount</dt>
                <dd>{money(d.totalCents)}</dd>
                <dt>Date</dt>
                <dd>{longDate(d.date)}</dd>
                <dt>Schedule</dt>
                <dd>
                  {scheduleName(d.schedule)}
                  {chargeOf(d) ? `: ${chargeOf(d)}` : ""}
                </dd>
                <dt>Status</dt>
                <dd>{withRetries(donationStatusName(d.status, d.regularGiftId !== null), d.retryDates)}</dd>
                <dt>Reference</dt>
                <dd>{d.reference}</dd>
              </dl>
              {d.receipt ? (
                <Actions>
                  <button
                    type="button"
                    data-opens={`receipt-${d.id}`}
                    onClick={() => show({ kind: "receipt", donation: d }, `receipt-${d.id}`)}
                  >
                    View receipt {d.reference}
                  </button>
                </Actions>
              ) : (
                <p className="account-hint">A receipt is ready once the payment has gone through.</p>
              )}
            </li>
          ))}
        </ul>
      )}

      <h3 id="regular-gifts">Regular gifts</h3>
      {giving.state === "ready" ? (
        <RegularGifts gifts={giving.value.gifts} changeGift={changeGift} reloadGift={reloadGift} returned={returned} />
      ) : giving.state === "loading" ? (
        <p role="status">Loading your regular gifts…</p>
      ) : (
        <p>Your regular gifts cannot be shown until your donations load. Please reload the page.</p>
      )}

      <h3>Tax summary</h3>
      {year !== null ? (
        <div className="account-field">
          <label htmlFor={yearId}>Financial year</label>
          <select id={yearId} value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((y) => (
              <option key={y} value={y}>
                {financialYearName(y)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {summary.state === "loading" ? (
        <p role="status">Loading the summary…</p>
      ) : summary.state === "failed" ? (
        <p role="alert" className="account-error-text">
          <strong>Error:</strong> {summary.message}
        </p>
      ) : (
        <>
          <TaxTotals summary={summary.value} />
          <p className="account-hint">
            Which funds are tax-deductible is being confirmed by the foundation; check with us before relying on this
            summary for a tax return.
          </p>
          <Actions>
            <button type="button" data-opens="summary" onClick={() => show({ kind: "summary" }, "summary")}>
              Open the printable summary
            </button>
          </Actions>
        </>
      )}
    </div>
  );
}
