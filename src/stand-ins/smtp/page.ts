/** The SMTP catcher's list page: who, what and when, with links to each message's HTML and text. */
import type { CaughtMessage } from "./catcher.js";

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function catcherPage(newestFirst: CaughtMessage[]): string {
  const rows = newestFirst
    .map(
      (m) =>
        `<tr><td>${m.id}</td><td>${escape(m.receivedAt.replace("T", " ").slice(0, 19))}</td>` +
        `<td>${escape(m.envelope.to.join(", "))}</td><td>${escape(m.subject)}</td>` +
        `<td>${m.html === null ? "" : `<a href="/messages/${m.id}.html">HTML</a> `}<a href="/messages/${m.id}.txt">Text</a></td></tr>`,
    )
    .join("");
  const body =
    newestFirst.length === 0
      ? "<p>No mail yet. Mail sent to this server is kept here, not delivered.</p>"
      : `<table><caption>${newestFirst.length} message${newestFirst.length === 1 ? "" : "s"}, newest first</caption>` +
        `<thead><tr><th scope="col">#</th><th scope="col">Received (UTC)</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Read</th></tr></thead>` +
        `<tbody>${rows}</tbody></table>`;
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Mail caught by nzf-build</title><style>body{font-family:system-ui,sans-serif;margin:1rem;color:#1d1b22}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #d9d2e3;overflow-wrap:anywhere}caption{text-align:left;font-weight:600;padding:.4rem 0}a{color:#4b2472}</style></head><body><main><h1>Mail caught by nzf-build</h1>${body}</main></body></html>`;
}
