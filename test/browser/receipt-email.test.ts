/**
 * The receipt of a zakat gift as the donor opens it: sent through nodemailer to the SMTP catcher,
 * read back from the catcher's HTTP page, and shown in real Chromium at 390×844 as a mail program
 * shows HTML (the catcher serves it sandboxed). It must read without sideways scrolling, pass axe,
 * and say about deductibility what the zakat pay page says.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { createMailer } from "../../src/receipts/mailer.js";
import { receiptMessage } from "../../src/receipts/message.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { zakatReceipt } from "../support/receipt-fixture.js";

let catcher: SmtpCatcher;
let browser: Browser;
beforeAll(async () => {
  [catcher, browser] = await Promise.all([startSmtpCatcher(), launchBrowser()]);
});
afterAll(async () => {
  await Promise.all([catcher?.stop(), browser?.close()]);
});

/** The sentence about deductibility on the zakat pay page of the sample content. */
async function zakatPageDeductibility(): Promise<string> {
  const snapshot = JSON.parse(await readFile("content-cache/sample/snapshot.json", "utf8")) as {
    documents: { type: string; lang: string; data: { body?: { text?: string }[] } }[];
  };
  const page = snapshot.documents.find((d) => d.type === "zakat" && d.lang === "en-au")!;
  return page.data.body!.map((b) => b.text ?? "").find((t) => /tax-deductible/.test(t))!;
}

describe("a zakat receipt opened from the SMTP catcher", () => {
  it("reads at 390 px, passes axe, and agrees with the pay page on deductibility", async () => {
    const paySays = await zakatPageDeductibility();
    // The pay page says zakat is not deductible; the receipt is made with the fund's setting to match.
    const deductible = !/\bnot tax-deductible\b/.test(paySays);
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    await mailer.send(
      receiptMessage(
        {
          ...zakatReceipt,
          taxDeductible: deductible,
          // A long name and e-mail must wrap, not widen the page.
          donor: {
            name: "Aisha Binte Abdul-Rahman Al-Longfamilyname-Withaveryveryverylongsuffix",
            email: "aisha@example.org",
          },
        },
        { from: "National Zakat Foundation <receipts@nzf.org.au>" },
      ),
    );
    mailer.close();
    const caught = await catcher.waitFor((m) => m.subject.includes("2026-27/000123"));

    const context = await isolatedContext(browser, {
      viewport: { width: 390, height: 844 },
      // The catcher serves mail under a sandbox CSP (no script), as a mail program would; axe is injected.
      bypassCSP: true,
    });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${catcher.url}messages/${caught.id}.html`);
      expect(response?.status()).toBe(200);
      expect(await page.locator("html").getAttribute("lang")).toBe("en-AU");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Receipt for your gift");
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll, "no sideways scrolling at 390 px").toBeLessThanOrEqual(widths.client);
      // Readable: body text at least 16 px, and the amount is in a row headed "Amount".
      const fontSize = await page.evaluate(() => getComputedStyle(document.querySelector("main")!).fontSize);
      expect(Number.parseFloat(fontSize)).toBeGreaterThanOrEqual(16);
      expect(await page.getByRole("row", { name: /^Amount/ }).textContent()).toContain("$38.12");
      const says = await page.getByText(/tax-deductible/).textContent();
      expect(says).toBe("Gifts to Zakat are not tax-deductible, so this receipt is for your records only.");
      expect(/\bnot tax-deductible\b/.test(says!)).toBe(/\bnot tax-deductible\b/.test(paySays));
      const violations = await axeViolations(page);
      expect(violations, formatViolations(page.url(), violations)).toEqual([]);
      await page.screenshot({ path: "test-results/receipt-email-390.png", fullPage: true });
    } finally {
      await context.close();
    }
  });
});
