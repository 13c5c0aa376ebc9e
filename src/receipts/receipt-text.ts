/**
 * The receipt as plain text, the alternative part of the e-mail (and what a mail program without
 * HTML shows): the same words as the HTML, a label and a value per line. Browser-safe.
 */
import { type Receipt, receiptWords } from "./receipt.js";

export function receiptText(receipt: Receipt): string {
  const w = receiptWords(receipt);
  const width = Math.max(...w.rows.map((r) => r.label.length));
  return [
    w.issuerLine,
    "",
    w.heading,
    "=".repeat(w.heading.length),
    "",
    w.lead,
    "",
    ...w.rows.map((r) => `${`${r.label}:`.padEnd(width + 2)}${r.value}`),
    "",
    w.deductibility,
    "",
    w.footer,
    "",
  ].join("\n");
}
