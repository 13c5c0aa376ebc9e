import { describe, expect, it } from "vitest";
import { receiptMessage } from "../../src/receipts/message.js";
import { checkReceipt, type Receipt, ReceiptInvalid, receiptWords } from "../../src/receipts/receipt.js";
import { receiptHtml } from "../../src/receipts/receipt-html.js";
import { receiptText } from "../../src/receipts/receipt-text.js";
import { zakatReceipt } from "../support/receipt-fixture.js";

describe("a receipt", () => {
  it("carries what an Australian charity's receipt needs, in both versions", () => {
    const html = receiptHtml(zakatReceipt);
    const text = receiptText(zakatReceipt);
    // The HTML keeps the ABN on one line with no-break spaces.
    expect(html).toContain("ABN\u00a051\u00a0824\u00a0753\u00a0556");
    for (const version of [html.replace(/\u00a0/g, " "), text]) {
      expect(version).toContain("National Zakat Foundation Australia");
      expect(version).toContain("ABN 51 824 753 556");
      expect(version).toContain("2026-27/000123");
      expect(version).toContain("27 November 2026");
      expect(version).toContain("Aisha Rahman");
      expect(version).toContain("$38.12");
      expect(version).toContain("Zakat");
      expect(version).toContain("Visa ending 4242");
      expect(version).toContain("3 of 12");
      expect(version).toContain("NZF-7K3Q-92");
      expect(version).toContain("Gifts to Zakat are not tax-deductible");
      expect(version).not.toContain("tax-deductible gift");
    }
    expect(text).toMatch(/^Amount: +\$38\.12$/m);
  });

  it('says "tax-deductible gift" only for a fund set so', () => {
    const sadaqah = { ...zakatReceipt, fund: "sadaqah", taxDeductible: true, instalment: undefined };
    const words = receiptWords(sadaqah);
    expect(words.deductibility).toContain("This is a tax-deductible gift");
    expect(words.deductibility).toContain("no goods or services were received");
    expect(receiptText(sadaqah)).not.toContain("not tax-deductible");
  });

  it("is an accessible HTML document: lang, a title, one heading, row headers in a captioned table", () => {
    const html = receiptHtml(zakatReceipt);
    expect(html.startsWith('<!DOCTYPE html><html lang="en-AU">')).toBe(true);
    expect(html).toContain("<title>Your receipt 2026-27/000123 for your gift</title>");
    expect(html.match(/<h1\b/g)).toHaveLength(1);
    expect(html).toContain("<caption");
    expect(html).toMatch(/<th scope="row"[^>]*>Amount<\/th>/);
    expect(html).not.toMatch(/<style|<link|<script/);
  });

  it("shows the fee the donor covered within the amount", () => {
    const text = receiptText({ ...zakatReceipt, amountCents: 10_220, feeCents: 220 });
    expect(text).toMatch(/^Amount: +\$102\.20$/m);
    expect(text).toMatch(/^Of which covers card fees: +\$2\.20$/m);
  });

  it("prints PayPal without digits", () => {
    const text = receiptText({ ...zakatReceipt, paymentMethod: { brand: "PayPal" } });
    expect(text).toMatch(/^Paid with: +PayPal$/m);
  });
});

describe("an attacker's donor name", () => {
  it("is escaped in the HTML", () => {
    const html = receiptHtml({
      ...zakatReceipt,
      donor: { name: '<img src=x onerror=alert(1)>"&', email: "a@example.org" },
    });
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;&quot;&amp;");
  });

  it("cannot add a line to the text receipt", () => {
    const text = receiptText({
      ...zakatReceipt,
      donor: { name: "Mallory\r\nAmount: $0.00\u2028Fund: none", email: "m@example.org" },
    });
    expect(text.match(/^Amount:/gm)).toHaveLength(1);
    expect(text).toContain("Mallory Amount: $0.00 Fund: none");
  });

  it("cannot reach the mail headers: the subject is made of the number only", () => {
    const message = receiptMessage(
      { ...zakatReceipt, donor: { name: "x\r\nBcc: all@example.org", email: "a@example.org" } },
      { from: "NZF <receipts@nzf.org.au>" },
    );
    expect(message.subject).toBe("Your receipt 2026-27/000123 for your gift");
    expect(message.messageId).toBe("<receipt-receipt-2026-27-000123@nzf.org.au>");
    expect(message.to).toBe("a@example.org");
  });
});

describe("a receipt that cannot be printed is refused before it is sent", () => {
  const cases: [string, Partial<Receipt>][] = [
    ["number", { number: "123" }],
    ["issuer.abn", { issuer: { name: "NZF", abn: "51 824 753 557" } }],
    ["issuer.name", { issuer: { name: " ", abn: "51 824 753 556" } }],
    ["donor.name", { donor: { name: "", email: "a@example.org" } }],
    ["donor.email", { donor: { name: "A", email: "a@b@c" } }],
    ["amountCents", { amountCents: 10.5 }],
    ["amountCents", { amountCents: -1 }],
    ["feeCents", { feeCents: 5_000 }],
    ["paymentMethod.last4", { paymentMethod: { brand: "Visa", last4: "42424" } }],
    ["instalment", { instalment: { index: 13, count: 12 } }],
    ["issuedAt", { issuedAt: "soon" }],
    ["reason", { kind: "void", voids: { number: "2026-27/000123", amountCents: 1 } }],
    ["voids", { kind: "correction", reason: "Part refunded" }],
    ["voids", { kind: "correction", reason: "Part refunded", voids: { number: "2026-27/000123", amountCents: 1 } }],
  ];
  it.each(cases)("%s", (field, change) => {
    try {
      checkReceipt({ ...zakatReceipt, ...change });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ReceiptInvalid);
      expect((error as ReceiptInvalid).field).toBe(field);
    }
  });
});

describe("refunds and disputes", () => {
  it("a void notice quotes the receipt, its amount and the reason, and claims nothing", () => {
    const text = receiptText({
      ...zakatReceipt,
      kind: "void",
      issuedAt: "2026-12-02T01:00:00Z",
      reason: "The payment was refunded in full on your request.",
      voids: { number: "2026-27/000123", amountCents: 3_812 },
    });
    expect(text).toContain("Receipt 2026-27/000123 is void");
    expect(text).toMatch(/^Amount of the voided receipt: +\$38\.12$/m);
    expect(text).toMatch(/^Reason: +The payment was refunded in full on your request\.$/m);
    expect(text).toContain("This receipt is void: it can no longer be used for a tax claim.");
    expect(text).toContain("2 December 2026");
  });

  it("a corrected receipt has a number of its own and names the one it replaces", () => {
    const correction = {
      ...zakatReceipt,
      kind: "correction" as const,
      number: "2026-27/000140",
      amountCents: 2_000,
      reason: "$18.12 was refunded.",
      voids: { number: "2026-27/000123", amountCents: 3_812 },
    };
    const text = receiptText(correction);
    expect(text).toContain("Corrected receipt");
    expect(text).toContain("This receipt replaces receipt 2026-27/000123, which is void.");
    expect(text).toMatch(/^Receipt number: +2026-27\/000140$/m);
    expect(text).toMatch(/^Replaces receipt: +2026-27\/000123$/m);
    expect(text).toMatch(/^Amount: +\$20\.00$/m);
    expect(receiptMessage(correction, { from: "r@nzf.org.au" }).subject).toBe(
      "Corrected receipt 2026-27/000140 for your gift",
    );
  });
});
