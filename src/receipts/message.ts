/**
 * A receipt as one e-mail message: HTML and plain text of the same words, to the donor, from the
 * foundation. Its Message-ID comes from the receipt number and kind, so a send retried after a
 * timeout that did go through carries the same id and mail programs show it once. Pure.
 */
import { type Receipt, receiptWords } from "./receipt.js";
import { receiptHtml } from "./receipt-html.js";
import { receiptText } from "./receipt-text.js";

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  replyTo?: string;
  /** Updates only: the one-click unsubscribe link (`List-Unsubscribe`, RFC 8058). */
  unsubscribeUrl?: string;
}

/** The domain of the sender address, for Message-IDs: `receipts@nzf.org.au` → `nzf.org.au`. */
function senderDomain(from: string): string {
  const match = /@([^\s<>@"]+)>?\s*$/.exec(from);
  return match ? match[1]! : "nzf-build.invalid";
}

export function receiptMessage(receipt: Receipt, sender: { from: string; replyTo?: string }): MailMessage {
  const words = receiptWords(receipt);
  const id = `receipt-${receipt.kind}-${receipt.number.replace("/", "-")}`;
  return {
    from: sender.from,
    to: receipt.donor.email,
    subject: words.subject,
    html: receiptHtml(receipt),
    text: receiptText(receipt),
    messageId: `<${id}@${senderDomain(sender.from)}>`,
    ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
  };
}
