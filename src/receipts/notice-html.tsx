/**
 * A notice as an HTML e-mail, in the receipt's style: one column readable at 390 px, inline styles
 * only, a heading, paragraphs, a table of labelled rows and at most one link. React escapes every
 * value. Node or browser.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { Notice } from "./notice.js";

const INK = "#1d1b22";
const MUTED = "#57525e";
const PRIMARY_DARK = "#4b2472";
const LINE = "#d9d2e3";
const FONT = "-apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

function NoticeEmail({ notice }: { notice: Notice }) {
  return (
    <html lang="en-AU">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{notice.subject}</title>
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
          <h1 style={{ margin: "0 0 12px", fontSize: "24px", lineHeight: 1.25, color: PRIMARY_DARK }}>
            {notice.heading}
          </h1>
          {notice.paragraphs.map((p) => (
            <p key={p} style={{ margin: "0 0 16px", overflowWrap: "anywhere" }}>
              {p}
            </p>
          ))}
          {notice.rows?.length ? (
            <table style={{ width: "100%", borderCollapse: "collapse", tableLayout: "fixed", margin: "0 0 16px" }}>
              <tbody>
                {notice.rows.map((row) => (
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
          ) : null}
          {notice.action ? (
            <p style={{ margin: "0 0 16px" }}>
              <a href={notice.action.url} style={{ color: PRIMARY_DARK, fontWeight: 700, overflowWrap: "anywhere" }}>
                {notice.action.label}
              </a>
            </p>
          ) : null}
          <p style={{ margin: 0, color: MUTED, fontSize: "14px", overflowWrap: "anywhere" }}>{notice.footer}</p>
          {notice.unsubscribeUrl ? (
            <p style={{ margin: "8px 0 0", fontSize: "14px" }}>
              <a href={notice.unsubscribeUrl} style={{ color: MUTED }}>
                Unsubscribe
              </a>
            </p>
          ) : null}
        </main>
      </body>
    </html>
  );
}

export function noticeHtml(notice: Notice): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<NoticeEmail notice={notice} />)}`;
}
