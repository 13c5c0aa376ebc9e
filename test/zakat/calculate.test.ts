import { describe, expect, it } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { calculateZakat } from "../../src/zakat/calculate.js";
import { parseAmount } from "../../src/zakat/parse-input.js";
import { ratio } from "../../src/zakat/ratio.js";
import type { ZakatInputs, ZakatSettings } from "../../src/zakat/types.js";

// Editor settings used throughout: silver $1.55/g, gold $160.20/g (per gram of PURE metal).
// Silver nisab: 595 g × $1.55 = $922.25 = 92,225 cents.
// Gold nisab:    85 g × $160.20 = $13,617.00 = 1,361,700 cents.
const settings: ZakatSettings = {
  nisabBasis: "silver",
  silverPricePerGram: "1.55",
  goldPricePerGram: "160.20",
  pricesAsAt: "2026-11-01",
  longTermShareProxyPercent: "30",
  ratePercent: { lunar: "2.5", solar: "2.577" },
  help: {
    cash: null,
    gold_silver: null,
    shares: null,
    receivables: null,
    business: null,
    property: null,
    crypto: null,
    super: null,
    other: null,
    liabilities: null,
  },
};

function inputs(partial: Partial<ZakatInputs>): ZakatInputs {
  return { yearType: "lunar", assets: {}, liabilities: {}, ...partial };
}

const cash = (cents: bigint) => inputs({ assets: { cash: cents } });

describe("nisab", () => {
  it("is due exactly at the nisab", () => {
    // net $922.25 = nisab → due = 92,225 × 2.5% = 2,305.625 cents → $23.06
    const result = calculateZakat(cash(92_225n), settings);
    expect(result.nisab.valueCents).toBe(92_225n);
    expect(result.nisab.grams).toBe(595);
    expect(result.nisab.basis).toBe("silver");
    expect(result.nisab.pricePerGramText).toBe("$1.55");
    expect(result.nisab.pricesAsAt).toBe("2026-11-01");
    expect(result.aboveNisab).toBe(true);
    expect(result.dueCents).toBe(2_306n);
    expect(result.text.due).toBe("$23.06");
    expect(result.text.nisab).toBe("$922.25");
  });

  it("is nothing one cent below the nisab", () => {
    // $922.24 < $922.25
    const result = calculateZakat(cash(92_224n), settings);
    expect(result.aboveNisab).toBe(false);
    expect(result.dueCents).toBe(0n);
    expect(result.netCents).toBe(92_224n);
  });

  it("uses 85 g of gold when the editor chooses the gold basis", () => {
    const gold = { ...settings, nisabBasis: "gold" as const };
    // nisab 85 × $160.20 = $13,617.00; due at the nisab = 1,361,700 / 40 = 34,042.5 cents → $340.43
    expect(calculateZakat(cash(1_361_700n), gold).dueCents).toBe(34_043n);
    expect(calculateZakat(cash(1_361_700n), gold).nisab.valueCents).toBe(1_361_700n);
    // one cent below the gold nisab, though far above the silver one: nothing due
    expect(calculateZakat(cash(1_361_699n), gold).dueCents).toBe(0n);
  });

  it("keeps a nisab price with fractions of a cent exact", () => {
    // $1.5534/g × 595 g = $924.273 → shown as $924.27; a net of $924.27 is below the exact nisab
    const fine = { ...settings, silverPricePerGram: "1.5534" };
    const result = calculateZakat(cash(92_427n), fine);
    expect(result.nisab.pricePerGramText).toBe("$1.5534");
    expect(result.nisab.valueExact).toEqual(ratio(924_273n, 10n));
    expect(result.nisab.valueCents).toBe(92_427n);
    expect(result.aboveNisab).toBe(false);
    expect(calculateZakat(cash(92_428n), fine).aboveNisab).toBe(true);
  });
});

describe("liabilities", () => {
  it("subtracts liabilities due now and shows a negative net but charges nothing", () => {
    // $500 cash − ($600 debts + $200 bills) = −$300
    const result = calculateZakat(
      inputs({ assets: { cash: 50_000n }, liabilities: { debts: 60_000n, billsAndTax: 20_000n } }),
      settings,
    );
    expect(result.totalAssetsCents).toBe(50_000n);
    expect(result.totalLiabilitiesCents).toBe(80_000n);
    expect(result.netCents).toBe(-30_000n);
    expect(result.text.net).toBe("-$300.00");
    expect(result.aboveNisab).toBe(false);
    expect(result.dueCents).toBe(0n);
  });

  it("subtracts the current loan instalment, not a whole mortgage", () => {
    // $5,000 cash − $1,200 instalment due now = $3,800 → due $95.00
    const result = calculateZakat(
      inputs({ assets: { cash: 500_000n }, liabilities: { loanInstalments: 120_000n } }),
      settings,
    );
    expect(result.netCents).toBe(380_000n);
    expect(result.dueCents).toBe(9_500n);
  });
});

describe("gold and silver", () => {
  it("values 18 carat gold by grams × 18/24 × price of pure gold", () => {
    // 12.5 g × 18/24 = 9.375 g pure × 16,020 c/g = 150,187.5 cents (shown $1,501.88)
    const result = calculateZakat(
      inputs({ gold: [{ kind: "weight", milligrams: 12_500n, purity: { unit: "carat", value: 18 } }] }),
      settings,
    );
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]!.valueExact).toEqual(ratio(300_375n, 2n));
    expect(result.lines[0]!.zakatableCents).toBe(150_188n);
    expect(result.lines[0]!.detail).toBe("12.5 g of 18 carat gold at $160.20 per gram of pure gold");
    // due = 150,187.5 / 40 = 3,754.6875 → 3,755 cents
    expect(result.dueCents).toBe(3_755n);
  });

  it("does not round each item before adding them up", () => {
    // two items of 150,187.5 cents = 300,375 cents exactly (rounding each first would give 300,376)
    const item = { kind: "weight", milligrams: 12_500n, purity: { unit: "carat", value: 18 } } as const;
    const result = calculateZakat(inputs({ gold: [item, item] }), settings);
    expect(result.totalAssetsCents).toBe(300_375n);
    expect(result.lines.map((l) => l.zakatableCents)).toEqual([150_188n, 150_188n]);
    // due = 300,375 / 40 = 7,509.375 → 7,509 cents
    expect(result.dueCents).toBe(7_509n);
  });

  it("values 916 thousandths gold", () => {
    // 10 g × 916/1000 = 9.16 g pure × 16,020 = 146,743.2 cents
    const result = calculateZakat(
      inputs({ gold: [{ kind: "weight", milligrams: 10_000n, purity: { unit: "thousandths", value: 916 } }] }),
      settings,
    );
    expect(result.totalAssetsExact).toEqual(ratio(733_716n, 5n));
    expect(result.totalAssetsCents).toBe(146_743n);
    // due = 146,743.2 / 40 = 3,668.58 → 3,669 cents
    expect(result.dueCents).toBe(3_669n);
  });

  it("values sterling silver (925) and silver by value, with gold on a silver nisab", () => {
    // 100 g × 925/1000 = 92.5 g × 155 c = 14,337.5 c; silver valued at $100 = 10,000 c
    // 22 carat: 50 g × 22/24 × 16,020 = 734,250 c. Total 758,587.5 c → shown $7,585.88
    const result = calculateZakat(
      inputs({
        silver: [
          { kind: "weight", milligrams: 100_000n, purity: { unit: "thousandths", value: 925 } },
          { kind: "value", cents: 10_000n },
        ],
        gold: [{ kind: "weight", milligrams: 50_000n, purity: { unit: "carat", value: 22 } }],
      }),
      settings,
    );
    expect(result.lines.map((l) => [l.id, l.zakatableCents])).toEqual([
      ["gold", 734_250n],
      ["silver", 14_338n],
      ["silver", 10_000n],
    ]);
    expect(result.totalAssetsCents).toBe(758_588n);
    // due = 758,587.5 / 40 = 18,964.6875 → 18,965 cents
    expect(result.dueCents).toBe(18_965n);
  });

  it("refuses an impossible purity", () => {
    const bad = inputs({ gold: [{ kind: "weight", milligrams: 1_000n, purity: { unit: "carat", value: 25 } }] });
    expect(() => calculateZakat(bad, settings)).toThrow(NzfError);
  });
});

describe("rate", () => {
  it("uses 2.5% for a lunar year and 2.577% for a solar year", () => {
    // $1,000: lunar 100,000 × 25/1000 = 2,500 c; solar 100,000 × 2577/100000 = 2,577 c
    const lunar = calculateZakat(cash(100_000n), settings);
    const solar = calculateZakat({ ...cash(100_000n), yearType: "solar" }, settings);
    expect(lunar.dueCents).toBe(2_500n);
    expect(lunar.rate).toEqual({ yearType: "lunar", numerator: 25n, denominator: 1000n, percentText: "2.5%" });
    expect(solar.dueCents).toBe(2_577n);
    expect(solar.rate).toEqual({ yearType: "solar", numerator: 2577n, denominator: 100000n, percentText: "2.577%" });
  });
});

describe("long-term shares", () => {
  it("counts only the editor's proxy percentage of the market value", () => {
    // 30% of $10,000 = $3,000 zakatable → due $75.00 (not $250.00 on the full value)
    const result = calculateZakat(inputs({ assets: { sharesLongTerm: 1_000_000n } }), settings);
    expect(result.lines[0]!.valueCents).toBe(1_000_000n);
    expect(result.lines[0]!.zakatableCents).toBe(300_000n);
    expect(result.lines[0]!.detail).toBe("30% of $10,000.00 is zakatable");
    expect(result.totalAssetsCents).toBe(300_000n);
    expect(result.dueCents).toBe(7_500n);
  });

  it("follows a different proxy and counts trading shares in full", () => {
    // 25% of $4,000 = $1,000 plus $2,000 trading shares = $3,000 → $75.00
    const result = calculateZakat(inputs({ assets: { sharesLongTerm: 400_000n, sharesTrading: 200_000n } }), {
      ...settings,
      longTermShareProxyPercent: "25",
    });
    expect(result.totalAssetsCents).toBe(300_000n);
    expect(result.dueCents).toBe(7_500n);
  });
});

describe("rounding half up, once", () => {
  it("rounds an exact half cent up", () => {
    // lunar: 100,020 / 40 = 2,500.5 cents exactly → 2,501
    expect(calculateZakat(cash(100_020n), settings).dueCents).toBe(2_501n);
    // solar: 150,000 × 2577 = 386,550,000 → / 100,000 = 3,865.5 cents exactly → 3,866
    expect(calculateZakat({ ...cash(150_000n), yearType: "solar" }, settings).dueCents).toBe(3_866n);
  });

  it("rounds just below a half cent down", () => {
    // solar: 104,870 × 2577 = 262,175,000 + 8,074,990 = 270,249,990 → 2,702.4999 cents → 2,702
    expect(calculateZakat({ ...cash(104_870n), yearType: "solar" }, settings).dueCents).toBe(2_702n);
    // solar: 135,487 × 2577 = 349,149,999 → 3,491.49999 cents → 3,491
    expect(calculateZakat({ ...cash(135_487n), yearType: "solar" }, settings).dueCents).toBe(3_491n);
  });

  it("rounds the due once from exact fractions, not from rounded lines", () => {
    // Two gold items of 12.5 g 18k = 150,187.5 c each, plus 4 c cash: exact total 300,379 c;
    // due = 300,379 / 40 = 7,509.475 → 7,509. Rounding each item first (150,188 × 2 + 4 = 300,380)
    // would give 7,509.5 → 7,510, one cent too much.
    const item = { kind: "weight", milligrams: 12_500n, purity: { unit: "carat", value: 18 } } as const;
    const result = calculateZakat(inputs({ assets: { cash: 4n }, gold: [item, item] }), settings);
    expect(result.totalAssetsCents).toBe(300_379n);
    expect(result.dueCents).toBe(7_509n);
  });

  it("keeps a share proxy's fractions of a cent in the total", () => {
    // 30% of 1 c = 0.3 c, plus $1,000.00 cash: exact total 100,000.3 c, shown $1,000.00
    const result = calculateZakat(inputs({ assets: { cash: 100_000n, sharesLongTerm: 1n } }), settings);
    expect(result.totalAssetsExact).toEqual(ratio(1_000_003n, 10n));
    expect(result.totalAssetsCents).toBe(100_000n);
    // due = 100,000.3 / 40 = 2,500.0075 → 2,500
    expect(result.dueCents).toBe(2_500n);
  });
});

describe("very large amounts", () => {
  it("is exact beyond 2^53 cents, from form text", () => {
    // $90,071,992,547,409.93 = 9,007,199,254,740,993 cents = 2^53 + 1, which a double cannot hold.
    const parsed = parseAmount("90,071,992,547,409.93");
    expect(parsed).toEqual({ ok: true, cents: 9_007_199_254_740_993n });
    const result = calculateZakat(cash(9_007_199_254_740_993n), settings);
    expect(result.text.totalAssets).toBe("$90,071,992,547,409.93");
    // 9,007,199,254,740,993 / 40 = 225,179,981,368,524 remainder 33 (0.825) → …525
    expect(result.dueCents).toBe(225_179_981_368_525n);
    // solar: × 2577 = 23,211,552,479,467,538,961 / 100,000 = 232,115,524,794,675.38961 → …675
    expect(calculateZakat({ ...cash(9_007_199_254_740_993n), yearType: "solar" }, settings).dueCents).toBe(
      232_115_524_794_675n,
    );
  });

  it("handles a 20-digit amount of cents", () => {
    // 12,345,678,901,234,567,891 cents / 40 = 308,641,972,530,864,197 remainder 11 (0.275) → …197
    const parsed = parseAmount("$123,456,789,012,345,678.91");
    expect(parsed).toEqual({ ok: true, cents: 12_345_678_901_234_567_891n });
    const result = calculateZakat(cash(12_345_678_901_234_567_891n), settings);
    expect(result.dueCents).toBe(308_641_972_530_864_197n);
    expect(result.text.due).toBe("$3,086,419,725,308,641.97");
  });
});

describe("explanation and input checks", () => {
  it("lists non-zero categories, assets before liabilities, with labels", () => {
    const result = calculateZakat(
      inputs({ assets: { crypto: 1_000n, cash: 2_000n, superVoluntary: 0n }, liabilities: { wagesOwed: 500n } }),
      settings,
    );
    expect(result.lines.map((l) => [l.id, l.kind, l.label])).toEqual([
      ["cash", "asset", "Cash and bank balances (including offset accounts)"],
      ["crypto", "asset", "Cryptocurrency"],
      ["wagesOwed", "liability", "Wages owed"],
    ]);
    expect(result.netCents).toBe(2_500n);
  });

  it("refuses negative or non-bigint amounts", () => {
    expect(() => calculateZakat(cash(-1n), settings)).toThrow(/negative/);
    expect(() => calculateZakat(inputs({ assets: { cash: 5 as unknown as bigint } }), settings)).toThrow(/bigint/);
  });

  it("refuses unusable settings", () => {
    expect(() => calculateZakat(cash(1n), { ...settings, silverPricePerGram: "0" })).toThrow(/silverPricePerGram/);
    expect(() => calculateZakat(cash(1n), { ...settings, longTermShareProxyPercent: "101" })).toThrow(
      /longTermShareProxyPercent/,
    );
  });
});
