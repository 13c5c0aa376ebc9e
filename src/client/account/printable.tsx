/**
 * The printable documents: a receipt for one paid donation and the tax summary of a financial
 * year. Each opens in place of the account's lists; its Print button calls the browser's print
 * (which also saves as PDF), and the print stylesheet (templates/styles/account.css, `@media
 * print`) prints only the open document. Which funds are deductible comes from the API (one list,
 * src/account-api/store.ts), never decided here.
 */
import { useEffect, useRef } from "react";
import { useIslandId } from "../island-id.js";
import { Actions } from "./field.js";
import {
  financialYearName,
  fundName,
  longDate,
  money,
  scheduleName,
  type DonationData,
  type TaxSummaryData,
} from "./giving-queries.js";

const FOUNDATION = "National Zakat Foundation Australia";

/** Who issues the receipts: the site's name and ABN from the global document (empty: left out). */
export interface ReceiptIssuer {
  name?: string;
  abn?: string;
}

function Printable({
  title,
  issuer,
  onClose,
  children,
}: {
  title: string;
  issuer: ReceiptIssuer;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const id = useIslandId("document");
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <article className="account-document" aria-labelledby={id}>
      <p className="account-document-issuer">
        {issuer.name || FOUNDATION}
        {issuer.abn ? ` · ABN ${issuer.abn}` : ""}
      </p>
      <h3 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      {children}
      <Actions>
        <button type="button" onClick={() => window.print()}>
          Print or save as PDF
        </button>
        <button type="button" className="account-secondary" onClick={onClose}>
          Back to your account
        </button>
      </Actions>
    </article>
  );
}

export function ReceiptDocument({
  donation,
  donorEmail,
  issuer,
  onClose,
}: {
  donation: DonationData;
  donorEmail: string;
  issuer: ReceiptIssuer;
  onClose: () => void;
}) {
  const receipt = donation.receipt!;
  return (
    <Printable title={`Receipt ${receipt.number}`} issuer={issuer} onClose={onClose}>
      <dl className="account-facts">
        <dt>Receipt number</dt>
        <dd>{receipt.number}</dd>
        <dt>Date</dt>
        <dd>{longDate(receipt.date)}</dd>
        <dt>Donor</dt>
        <dd>{receipt.donorName}</dd>
        <dt>Account e-mail</dt>
        <dd>{donorEmail}</dd>
        <dt>Fund</dt>
        <dd>{fundName(receipt.fund)}</dd>
        <dt>Schedule</dt>
        <dd>{scheduleName(donation.schedule)}</dd>
        <dt>Gift</dt>
        <dd>{money(donation.amountCents)}</dd>
        {donation.feeCents > 0 ? (
          <>
            <dt>Fees you chose to cover</dt>
            <dd>{money(donation.feeCents)}</dd>
          </>
        ) : null}
        <dt>Total received</dt>
        <dd>{money(receipt.totalCents)}</dd>
        <dt>Financial year</dt>
        <dd>{financialYearName(receipt.financialYear)}</dd>
      </dl>
      <p>
        {receipt.taxDeductible
          ? "This gift is listed as tax-deductible. Keep this receipt with your tax records."
          : `Gifts to ${fundName(receipt.fund)} are not tax-deductible, so this receipt is for your records only.`}
      </p>
    </Printable>
  );
}

export function SummaryDocument({
  summary,
  donorEmail,
  issuer,
  onClose,
}: {
  summary: TaxSummaryData;
  donorEmail: string;
  issuer: ReceiptIssuer;
  onClose: () => void;
}) {
  return (
    <Printable title={`Tax summary, ${financialYearName(summary.financialYear)}`} issuer={issuer} onClose={onClose}>
      <p>Donor: {donorEmail}</p>
      <TaxTotals summary={summary} />
      {summary.receipts.length > 0 ? <ReceiptCards receipts={summary.receipts} /> : null}
      {summary.receipts.length > 0 ? (
        <table className="account-table account-wide">
          <caption>Receipts in this financial year</caption>
          <thead>
            <tr>
              <th scope="col">Receipt</th>
              <th scope="col">Date</th>
              <th scope="col">Fund</th>
              <th scope="col">Amount</th>
              <th scope="col">Deductible</th>
            </tr>
          </thead>
          <tbody>
            {summary.receipts.map((r) => (
              <tr key={r.number}>
                <td>{r.number}</td>
                <td>{longDate(r.date)}</td>
                <td>{fundName(r.fund)}</td>
                <td>{money(r.totalCents)}</td>
                <td>{r.taxDeductible ? "Yes" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Printable>
  );
}

/**
 * The receipts as cards, for phones: a five-column table cannot fit 320 px. Either the cards or
 * the table is shown (CSS, by width; print takes the table), so each is read once.
 */
function ReceiptCards({ receipts }: { receipts: TaxSummaryData["receipts"] }) {
  return (
    <section className="account-narrow" aria-label="Receipts in this financial year">
      <h4>Receipts in this financial year</h4>
      <ul className="account-receipt-cards">
        {receipts.map((r) => (
          <li key={r.number}>
            <dl className="account-facts">
              <dt>Receipt</dt>
              <dd>{r.number}</dd>
              <dt>Date</dt>
              <dd>{longDate(r.date)}</dd>
              <dt>Fund</dt>
              <dd>{fundName(r.fund)}</dd>
              <dt>Amount</dt>
              <dd>{money(r.totalCents)}</dd>
              <dt>Deductible</dt>
              <dd>{r.taxDeductible ? "Yes" : "No"}</dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The year's totals, on the account page and in the printable summary alike. */
export function TaxTotals({ summary }: { summary: TaxSummaryData }) {
  if (summary.deductibleTotalCents === 0 && summary.nonDeductibleTotalCents === 0)
    return <p>You made no paid gifts in the financial year {financialYearName(summary.financialYear)}.</p>;
  return (
    <>
      <p className="account-total">
        Tax-deductible gifts: <strong>{money(summary.deductibleTotalCents)}</strong>
      </p>
      {summary.funds.length > 0 ? (
        <ul className="account-fund-totals">
          {summary.funds.map((f) => (
            <li key={f.fund}>
              {fundName(f.fund)}: {money(f.totalCents)} ({f.count} {f.count === 1 ? "gift" : "gifts"})
            </li>
          ))}
        </ul>
      ) : null}
      {summary.nonDeductibleTotalCents > 0 ? (
        <p>Gifts that are not tax-deductible (for your records): {money(summary.nonDeductibleTotalCents)}</p>
      ) : null}
    </>
  );
}
