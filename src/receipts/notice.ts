/**
 * A notice: any e-mail the service sends a person that is not a receipt (a declined charge, a
 * paused plan, moved dates, an enquiry's acknowledgement, an updates confirmation). One shape, so
 * the HTML and the plain text say the same words, and every value is kept to one line so nothing a
 * donor typed can add a line or a header. Browser-safe and pure.
 */
import type { MailMessage } from "./message.js";
import { noticeHtml } from "./notice-html.js";

export interface Notice {
  /** What made it, so it is sent once: e.g. `declined:<donation>/<date>`. Also its Message-ID. */
  key: string;
  to: string;
  subject: string;
  heading: string;
  /** The body, one paragraph each. */
  paragraphs: string[];
  /** Labelled facts shown as a table (amount, date, reference). */
  rows?: { label: string; value: string }[];
  /** A link the reader may follow (the account page, a confirmation link). */
  action?: { label: string; url: string };
  /** The small print: who sent it and why (the foundation, the ABN, how to stop updates). */
  footer: string;
  /** Replies go here rather than to the service's contact address (an enquiry: its sender). */
  replyTo?: string;
  /** `List-Unsubscribe` for updates (Spam Act): the one-click link. */
  unsubscribeUrl?: string;
}

/** Control characters and line breaks as one space. */
export const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();

function clean(notice: Notice): Notice {
  return {
    ...notice,
    to: oneLine(notice.to),
    subject: oneLine(notice.subject),
    heading: oneLine(notice.heading),
    paragraphs: notice.paragraphs.map(oneLine),
    rows: notice.rows?.map((r) => ({ label: oneLine(r.label), value: oneLine(r.value) })),
    footer: oneLine(notice.footer),
  };
}

export function noticeText(notice: Notice): string {
  const n = clean(notice);
  const rows = n.rows ?? [];
  const width = Math.max(0, ...rows.map((r) => r.label.length));
  return [
    n.heading,
    "=".repeat(n.heading.length),
    "",
    ...n.paragraphs.flatMap((p) => [p, ""]),
    ...(rows.length ? [...rows.map((r) => `${`${r.label}:`.padEnd(width + 2)}${r.value}`), ""] : []),
    ...(n.action ? [`${n.action.label}: ${n.action.url}`, ""] : []),
    n.footer,
    ...(n.unsubscribeUrl ? ["", `Unsubscribe: ${n.unsubscribeUrl}`] : []),
    "",
  ].join("\n");
}

/** The domain of the sender address, for Message-IDs. */
function senderDomain(from: string): string {
  const match = /@([^\s<>@"]+)>?\s*$/.exec(from);
  return match ? match[1]! : "nzf-build.invalid";
}

export function noticeMessage(notice: Notice, sender: { from: string; replyTo?: string }): MailMessage {
  const n = clean(notice);
  const id = n.key.replace(/[^A-Za-z0-9.-]+/g, "-").slice(0, 120);
  return {
    from: sender.from,
    to: n.to,
    subject: n.subject,
    html: noticeHtml(n),
    text: noticeText(n),
    messageId: `<notice-${id}@${senderDomain(sender.from)}>`,
    ...(n.replyTo ? { replyTo: oneLine(n.replyTo) } : sender.replyTo ? { replyTo: sender.replyTo } : {}),
    ...(n.unsubscribeUrl ? { unsubscribeUrl: n.unsubscribeUrl } : {}),
  };
}
