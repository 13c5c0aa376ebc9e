/**
 * Tax-deductibility is one setting per fund (`taxDeductible` in src/payments/fund-rules.ts), and the
 * donation page, the receipt and the donor's account all read it: none can say one thing while
 * another says the opposite.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TAX_DEDUCTIBLE_FUNDS } from "../../src/account-api/facts.js";
import { DEFAULT_FUND_RULES, isTaxDeductible } from "../../src/payments/fund-rules.js";
import { FUNDS } from "../../src/payments/types.js";
import { deductibilityText } from "../../src/receipts/receipt.js";
import { en } from "../../src/client/donation/words/en.js";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";

let site: SharedSite;
beforeAll(async () => {
  site = await sharedSampleSite();
}, 180_000);

describe("tax-deductibility", () => {
  it("is set for every fund, and zakat, qurban and tainted wealth are not deductible (as the content says)", () => {
    for (const fund of FUNDS) expect(typeof DEFAULT_FUND_RULES[fund].taxDeductible, fund).toBe("boolean");
    expect(FUNDS.filter((f) => !isTaxDeductible(f))).toEqual(["zakat", "qurban", "tainted-wealth"]);
  });

  it("the account and the receipt read the same setting", () => {
    for (const fund of FUNDS) {
      expect(TAX_DEDUCTIBLE_FUNDS[fund], fund).toBe(isTaxDeductible(fund));
      const sentence = deductibilityText({ kind: "receipt", fund, taxDeductible: isTaxDeductible(fund) } as never);
      expect(sentence.includes("not tax-deductible"), fund).toBe(!isTaxDeductible(fund));
    }
  });

  it("each donation page says what the setting says", async () => {
    for (const fund of ["zakat", "sadaqah", "qurban"] as const) {
      const html = await readFile(join(site.outDir, "pay", fund, "index.html"), "utf8");
      const line = /<p class="don-tax">([^<]*)<\/p>/.exec(html)?.[1];
      expect(line, fund).toBe(isTaxDeductible(fund) ? en.taxDeductible : en.notTaxDeductible);
    }
  });
});
