import { describe, expect, it } from "vitest";
import { calculateZakat } from "../../src/zakat/calculate.js";
import { parseZakatForm } from "../../src/zakat/form.js";
import { DEFAULT_RATE_PERCENT } from "../../src/zakat/settings.js";
import type { ZakatSettings } from "../../src/zakat/types.js";

const settings = {
  nisabBasis: "silver",
  silverPricePerGram: "1.55",
  goldPricePerGram: "160.20",
  pricesAsAt: "2026-11-01",
  longTermShareProxyPercent: "30",
  ratePercent: DEFAULT_RATE_PERCENT,
  help: {},
} as ZakatSettings;

describe("parseZakatForm", () => {
  it("turns typed text into inputs the calculation accepts", () => {
    const form = parseZakatForm({
      yearType: "lunar",
      assets: { cash: "$1,200.50", crypto: " 45 ", other: "" },
      gold: [
        { kind: "weight", grams: "12.5", purity: "18k", purityUnit: "carat" },
        { kind: "weight", grams: "", purity: "", purityUnit: "carat" }, // an empty row is ignored
      ],
      silver: [{ kind: "value", amount: "100" }],
      liabilities: { debts: "200" },
    });
    expect(form.ok).toBe(true);
    if (!form.ok) return;
    expect(form.inputs.assets.cash).toBe(120_050n);
    expect(form.inputs.assets.crypto).toBe(4_500n);
    expect(form.inputs.gold).toEqual([{ kind: "weight", milligrams: 12_500n, purity: { unit: "carat", value: 18 } }]);
    // 120,050 + 4,500 + 150,187.5 (gold) + 10,000 (silver) − 20,000 = 264,737.5 c
    const result = calculateZakat(form.inputs, settings);
    expect(result.netExact).toEqual({ numerator: 529_475n, denominator: 2n });
    expect(result.netCents).toBe(264_738n);
    // due = 264,737.5 / 40 = 6,618.4375 → 6,618
    expect(result.dueCents).toBe(6_618n);
  });

  it("reports every bad field by name", () => {
    const form = parseZakatForm({
      yearType: "solar",
      assets: { cash: "abc", sharesTrading: "-5" },
      gold: [{ kind: "weight", grams: "10", purity: "", purityUnit: "carat" }],
      silver: [{ kind: "weight", grams: "1.2.3", purity: "925", purityUnit: "thousandths" }],
      liabilities: { billsAndTax: "10.555" },
    });
    expect(form).toEqual({
      ok: false,
      errors: {
        cash: "Enter an amount in dollars, like 1,200.50.",
        sharesTrading: "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50.",
        billsAndTax: "Enter at most two decimal places for cents, like 10.55.",
        "gold.0.purity": "Enter the purity in carats from 1 to 24, like 18 for 18 carat gold.",
        "silver.0.grams": "Enter the weight in grams, like 12.5.",
      },
    });
  });
});
