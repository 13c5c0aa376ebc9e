/**
 * The frame every e-mail of the service shares (receipts and notices): one column that reads at
 * 390 px, inline styles only (mail programs drop <style> and external sheets), `lang`, and a table
 * of labelled rows with <th scope="row"> so a screen reader reads "Amount, $457.50". React renders
 * it, so every value is escaped. Node or browser.
 */
import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";

export const INK = "#1d1b22";
export const MUTED = "#57525e";
export const PRIMARY_DARK = "#4b2472";
const LINE = "#d9d2e3";
const FONT = "-apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

/** The page: its title (the subject) and the one column. */
export function EmailPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
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
          {children}
        </main>
      </body>
    </html>
  );
}

/** The heading, in the foundation's colour (or another, for a voided receipt). */
export function EmailHeading({ children, color = PRIMARY_DARK }: { children: ReactNode; color?: string }) {
  return <h1 style={{ margin: "0 0 12px", fontSize: "24px", lineHeight: 1.25, color }}>{children}</h1>;
}

/** Labelled facts (amount, date, reference) as a table of rows. */
export function FactsTable({ rows, caption }: { rows: { label: string; value: string }[]; caption?: string }) {
  return (
    <table style={{ width: "100%", borderCollapse: "collapse", tableLayout: "fixed", margin: "0 0 16px" }}>
      {caption ? <caption style={{ textAlign: "left", fontWeight: 700, padding: "0 0 8px" }}>{caption}</caption> : null}
      <tbody>
        {rows.map((row) => (
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
  );
}

/** The small print at the bottom. */
export function SmallPrint({ children }: { children: ReactNode }) {
  return <p style={{ margin: 0, color: MUTED, fontSize: "14px", overflowWrap: "anywhere" }}>{children}</p>;
}

/** The whole HTML document of an e-mail. */
export const emailDocument = (page: ReactElement) => `<!DOCTYPE html>${renderToStaticMarkup(page)}`;
