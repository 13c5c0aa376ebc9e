import { describe, expect, it } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { type CalculatePageData, settingsFromPrismic } from "../../src/zakat/settings.js";

const complete: CalculatePageData = {
  nisab_basis: "gold",
  silver_price_per_gram: 1.55,
  gold_price_per_gram: 160.2,
  prices_as_at: "2026-11-01",
  long_term_share_proxy: 25,
  help_super: [{ type: "paragraph", text: "Compulsory super is not zakatable.", spans: [] }],
  help_cash: [],
  help_other: [{ type: "paragraph", text: "  ", spans: [] }],
};

function errorOf(data: CalculatePageData): NzfError {
  try {
    settingsFromPrismic(data, "calc-doc-id");
  } catch (error) {
    if (error instanceof NzfError) return error;
    throw error;
  }
  throw new Error("expected settingsFromPrismic to throw");
}

describe("settingsFromPrismic", () => {
  it("reads the editor's fields as exact decimal strings", () => {
    const settings = settingsFromPrismic(complete);
    expect(settings.nisabBasis).toBe("gold");
    expect(settings.silverPricePerGram).toBe("1.55");
    expect(settings.goldPricePerGram).toBe("160.2");
    expect(settings.pricesAsAt).toBe("2026-11-01");
    expect(settings.longTermShareProxyPercent).toBe("25");
    expect(settings.ratePercent).toEqual({ lunar: "2.5", solar: "2.577" });
    expect(settings.help.super).toEqual(complete.help_super);
    // empty rich text ([] or a blank paragraph) and absent fields are null, so the UI uses its fallback
    expect(settings.help.cash).toBeNull();
    expect(settings.help.other).toBeNull();
    expect(settings.help.liabilities).toBeNull();
    // settings travel as island props: they must survive JSON
    expect(JSON.parse(JSON.stringify(settings))).toEqual(settings);
  });

  it("defaults to the silver basis and a 30% share proxy", () => {
    const settings = settingsFromPrismic({ ...complete, nisab_basis: null, long_term_share_proxy: null });
    expect(settings.nisabBasis).toBe("silver");
    expect(settings.longTermShareProxyPercent).toBe("30");
  });

  it("fails with DOCUMENT_INVALID naming a missing price", () => {
    const error = errorOf({ ...complete, silver_price_per_gram: null });
    expect(error.code).toBe("DOCUMENT_INVALID");
    expect(error.subject).toBe("calc-doc-id");
    expect(error.message).toContain("silver_price_per_gram is empty");
  });

  it("fails on a zero or negative price", () => {
    expect(errorOf({ ...complete, gold_price_per_gram: 0 }).message).toContain(
      "gold_price_per_gram is 0; it must be a positive",
    );
    expect(errorOf({ ...complete, gold_price_per_gram: -3 }).message).toContain("gold_price_per_gram is -3");
  });

  it("lists every problem at once", () => {
    const error = errorOf({
      nisab_basis: "platinum" as "gold",
      silver_price_per_gram: null,
      gold_price_per_gram: Number.NaN,
      prices_as_at: null,
      long_term_share_proxy: 150,
    });
    for (const field of [
      "nisab_basis",
      "silver_price_per_gram",
      "gold_price_per_gram",
      "prices_as_at",
      "long_term_share_proxy",
    ]) {
      expect(error.message).toContain(field);
    }
  });

  it("refuses a date that does not exist", () => {
    expect(errorOf({ ...complete, prices_as_at: "2026-02-30" }).message).toContain(
      'prices_as_at "2026-02-30" is not a date',
    );
  });
});

describe("editor-set zakat rates", () => {
  it("default to 2.5% lunar and 2.577% solar when the fields are empty", () => {
    expect(settingsFromPrismic(complete).ratePercent).toEqual({ lunar: "2.5", solar: "2.577" });
  });

  it("take the editor's rates, exactly", () => {
    expect(
      settingsFromPrismic({ ...complete, lunar_rate_percent: 2.5, solar_rate_percent: 2.5775 }).ratePercent,
    ).toEqual({ lunar: "2.5", solar: "2.5775" });
  });

  it("reject a rate that is zero, negative or implausibly high, naming the field", () => {
    const error = errorOf({ ...complete, lunar_rate_percent: 0, solar_rate_percent: 25 });
    expect(error.message).toContain("lunar_rate_percent is 0");
    expect(error.message).toContain("solar_rate_percent is 25");
  });
});
