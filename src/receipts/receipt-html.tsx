/**
 * The receipt as an HTML e-mail, in the frame all the service's e-mails share (email-layout.tsx):
 * the issuer, a heading, the lead, the receipt's facts as a table of labelled rows, the
 * deductibility line and the small print. Node or browser.
 */
import { EmailHeading, EmailPage, emailDocument, FactsTable, MUTED, PRIMARY_DARK, SmallPrint } from "./email-layout.js";
import { type Receipt, receiptWords } from "./receipt.js";

const TINT = "#f4eff9";

/** "ABN 51 824 753 556" kept on one line: a number broken across lines is misread. */
const keepAbnTogether = (text: string) => text.replace(/ABN [\d ]+\d/g, (abn) => abn.replace(/ /g, "\u00a0"));

function ReceiptEmail({ receipt }: { receipt: Receipt }) {
  const w = receiptWords(receipt);
  const isVoid = receipt.kind === "void";
  return (
    <EmailPage title={w.subject}>
      <p style={{ margin: "0 0 8px", color: MUTED, fontSize: "14px", overflowWrap: "anywhere" }}>
        {keepAbnTogether(w.issuerLine)}
      </p>
      <EmailHeading color={isVoid ? "#b3261e" : PRIMARY_DARK}>{w.heading}</EmailHeading>
      <p style={{ margin: "0 0 16px", overflowWrap: "anywhere" }}>{w.lead}</p>
      <FactsTable rows={w.rows} caption={isVoid ? "The receipt voided" : "Receipt details"} />
      <p
        style={{
          margin: "0 0 16px",
          padding: "12px",
          background: TINT,
          borderLeft: `4px solid ${PRIMARY_DARK}`,
          overflowWrap: "anywhere",
        }}
      >
        {w.deductibility}
      </p>
      <SmallPrint>{keepAbnTogether(w.footer)}</SmallPrint>
    </EmailPage>
  );
}

/** The whole HTML document of the e-mail. */
export function receiptHtml(receipt: Receipt): string {
  return emailDocument(<ReceiptEmail receipt={receipt} />);
}
