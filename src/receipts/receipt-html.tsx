/**
 * The receipt as an HTML e-mail: one column that reads at 390 px, inline styles only (mail
 * programs drop <style> and external sheets), a real heading and a table of labelled rows with
 * <th scope="row"> so a screen reader reads "Amount, $457.50". React renders it, so every value the
 * donor or the content supplied is escaped. Node or browser.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { type Receipt, receiptWords } from "./receipt.js";

const INK = "#1d1b22";
const MUTED = "#57525e";
const PRIMARY_DARK = "#4b2472";
const LINE = "#d9d2e3";
const TINT = "#f4eff9";

/** "ABN 51 824 753 556" kept on one line: a number broken across lines is misread. */
const keepAbnTogether = (text: string) => text.replace(/ABN [\d ]+\d/g, (abn) => abn.replace(/ /g, "\u00a0"));

const FONT = "-apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

function ReceiptEmail({ receipt }: { receipt: Receipt }) {
  const w = receiptWords(receipt);
  const isVoid = receipt.kind === "void";
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{w.subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: "#ffffff", color: INK, fontFamily: FONT }}>
        <main
          style={{
            boxSizing: "border-box",
            maxWidth: "600px",
            width: "100%",
            margin: "0 auto",
            padding: "16px",
            fontSize: "16px",
            lineHeight: 1.5,
          }}
        >
          <p style={{ margin: "0 0 8px", color: MUTED, fontSize: "14px", overflowWrap: "anywhere" }}>
            {keepAbnTogether(w.issuerLine)}
          </p>
          <h1
            style={{ margin: "0 0 12px", fontSize: "24px", lineHeight: 1.25, color: isVoid ? "#b3261e" : PRIMARY_DARK }}
          >
            {w.heading}
          </h1>
          <p style={{ margin: "0 0 16px", overflowWrap: "anywhere" }}>{w.lead}</p>
          <table style={{ width: "100%", borderCollapse: "collapse", tableLayout: "fixed", margin: "0 0 16px" }}>
            <caption style={{ textAlign: "left", fontWeight: 700, padding: "0 0 8px" }}>
              {isVoid ? "The receipt voided" : "Receipt details"}
            </caption>
            <tbody>
              {w.rows.map((row) => (
                <tr key={row.label} style={{ borderTop: `1px solid ${LINE}` }}>
                  <th
                    scope="row"
                    style={{
                      textAlign: "left",
                      verticalAlign: "top",
                      fontWeight: 400,
                      color: MUTED,
                      padding: "8px 8px 8px 0",
                      width: "42%",
                      overflowWrap: "anywhere",
                    }}
                  >
                    {row.label}
                  </th>
                  <td style={{ verticalAlign: "top", padding: "8px 0", fontWeight: 600, overflowWrap: "anywhere" }}>
                    {row.value}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
          <p style={{ margin: 0, color: MUTED, fontSize: "14px", overflowWrap: "anywhere" }}>
            {keepAbnTogether(w.footer)}
          </p>
        </main>
      </body>
    </html>
  );
}

/** The whole HTML document of the e-mail. */
export function receiptHtml(receipt: Receipt): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<ReceiptEmail receipt={receipt} />)}`;
}
