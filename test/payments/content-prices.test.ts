/**
 * The page content repeats the payments API's prices for display. These tests hold the sample
 * content and the backend's price list (DEFAULT_FUND_RULES, what the dev server charges) in step,
 * and check that contentPriceProblems names each way an editor's prices can drift, and that the
 * build's check (src/content/price-check.ts) refuses such content naming document, field and prices.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_FUND_RULES } from "../../src/payments/fund-rules.js";
import { contentPriceProblems, type ContentPrices } from "../../src/payments/pricing.js";
import { readSnapshot } from "../../src/content/snapshot.js";
import { checkContentPrices, contentPriceErrors, contentPricesOf } from "../../src/content/price-check.js";
import { formatError, NzfAggregateError, NzfError } from "../../src/core/errors.js";
import type { PrismicDocument } from "@prismicio/client";
import { createContentGraph } from "../../src/content/graph.js";
import { planContent } from "../../src/render/content-plan.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const snapshot = await readSnapshot(join(root, "content-cache", "sample", "snapshot.json"));
type Doc = { type: string; lang: string; data: Record<string, any> };
const docs = snapshot.documents as unknown as Doc[];

/** What the page says about prices, read the way the donation template reads the fields. */
const pricesOf = (doc: Doc): ContentPrices => ({
  unitAmount: doc.data.unit_amount ?? null,
  options: ((doc.data.animal_options ?? []) as Record<string, any>[]).map((o) => ({
    code: o.code,
    label: o.option_label,
    price: o.option_price,
  })),
});

describe("the sample content charges what the payments API charges", () => {
  it.each(["fitr", "fidyah", "qurban"] as const)("%s", (fund) => {
    const pages = docs.filter((d) => d.type === fund);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(contentPriceProblems(fund, DEFAULT_FUND_RULES[fund], pricesOf(page))).toEqual([]);
  });

  it("offers every qurban option the API prices, at $110, $150 and $450", () => {
    const qurban = docs.find((d) => d.type === "qurban")!;
    expect(pricesOf(qurban).options).toEqual([
      { code: "cow-share-overseas", label: "One-seventh share of a cow (overseas)", price: 110 },
      { code: "goat-overseas", label: "Goat (overseas)", price: 150 },
      { code: "lamb-australia", label: "Lamb (in Australia)", price: 450 },
    ]);
    expect(DEFAULT_FUND_RULES.qurban.quantity!.options!.map((o) => [o.code, o.unitCents])).toEqual([
      ["cow-share-overseas", 11000],
      ["goat-overseas", 15000],
      ["lamb-australia", 45000],
    ]);
  });
});

describe("contentPriceProblems", () => {
  const qurban = DEFAULT_FUND_RULES.qurban;
  const lamb = { code: "lamb-australia", label: "Lamb (in Australia)", price: 450 };

  it("names a price that differs, a code the API does not know, a missing and a repeated code", () => {
    const problems = contentPriceProblems("qurban", qurban, {
      options: [
        { ...lamb, price: 400 },
        { code: "camel", label: "Camel", price: 900 },
        { code: "", label: "Goat", price: 150 },
        lamb,
      ],
    });
    expect(problems).toEqual([
      'qurban: option 1 (Lamb (in Australia)) shows $400 but the payments API charges $450 for "lamb-australia". Change the page or the API\'s price so they match.',
      'qurban: option 2 (Camel) has the code "camel", which the payments API does not price. Use one of cow-share-overseas, goat-overseas, lamb-australia, or add it to the API first.',
      "qurban: option 3 (Goat) has no code. Enter the code the payments API knows it by: one of cow-share-overseas, goat-overseas, lamb-australia.",
      'qurban: option 4 (Lamb (in Australia)) repeats the code "lamb-australia". Each option needs its own code.',
    ]);
  });

  it("accepts fewer options than the API prices, but not none", () => {
    expect(contentPriceProblems("qurban", qurban, { options: [lamb] })).toEqual([]);
    expect(contentPriceProblems("qurban", qurban, { options: [] })).toEqual([
      "qurban: the page lists no options, so nothing can be paid. Add at least one of: cow-share-overseas, goat-overseas, lamb-australia.",
    ]);
  });

  it("checks a per-unit price, and ignores funds without one", () => {
    expect(contentPriceProblems("fitr", DEFAULT_FUND_RULES.fitr, { unitAmount: 15 })).toEqual([]);
    expect(contentPriceProblems("fitr", DEFAULT_FUND_RULES.fitr, { unitAmount: 16.5 })).toEqual([
      "fitr: the page's unit_amount is $16.50 but the payments API charges $15. Change the page or the API's price so they match.",
    ]);
    expect(contentPriceProblems("zakat", DEFAULT_FUND_RULES.zakat, { unitAmount: 99 })).toEqual([]);
  });
});

describe("the build refuses content whose prices the payments API refuses", () => {
  const edited = (edit: (doc: Doc) => void) =>
    (snapshot.documents as unknown as Doc[]).map((d) => {
      const copy = structuredClone(d);
      edit(copy);
      return copy;
    }) as unknown as PrismicDocument[];

  it("passes the sample content", () => {
    expect(() => checkContentPrices(snapshot.documents)).not.toThrow();
  });

  it("names the document, the field and both prices of every mismatch, all at once", () => {
    const docs = edited((d) => {
      if (d.type === "qurban") d.data.animal_options[2].option_price = 400;
      if (d.type === "fidyah") d.data.unit_amount = 12;
    });
    let thrown: unknown;
    try {
      checkContentPrices(docs);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NzfAggregateError);
    const errors = (thrown as NzfAggregateError).errors;
    expect(errors.map((e) => [e.code, e.subject])).toEqual([
      ["CONTENT_PRICE_MISMATCH", "8QMtUcKFkHr2dYrZ"],
      ["CONTENT_PRICE_MISMATCH", "hXOn5toTSeVvsub9"],
    ]);
    expect(errors[0]!.message).toBe(
      "Document 8QMtUcKFkHr2dYrZ (fidyah, en-au), field unit_amount: fidyah: the page's unit_amount is $12 but the payments API charges $15. Change the page or the API's price so they match.",
    );
    expect(errors[1]!.message).toContain(
      "Document hXOn5toTSeVvsub9 (qurban, en-au), field animal_options[2].option_price:",
    );
    expect(errors[1]!.message).toContain("shows $400 but the payments API charges $450");
    expect(formatError(thrown)).toContain("2 donation page price failures");
  });

  it("stops the build's planning (here and in a render worker) before any page or image", async () => {
    const docs = edited((d) => {
      if (d.type === "fitr") d.data.unit_amount = 16.5;
    });
    const plan = planContent(
      { ...snapshot, documents: docs },
      createContentGraph(docs, snapshot.languages),
      undefined,
      root,
    );
    await expect(plan).rejects.toMatchObject({ code: "CONTENT_PRICE_MISMATCH", subject: "Dt5VKtEz14QFSIkH" });
    await expect(plan).rejects.toThrow(
      "field unit_amount: fitr: the page's unit_amount is $16.50 but the payments API charges $15",
    );
  });

  it("throws the one error itself when there is one, and counts group items as Prismic shows them", () => {
    const docs = edited((d) => {
      if (d.type === "qurban")
        d.data.animal_options = [{}, { code: "goat-overseas", option_label: "Goat", option_price: 140 }];
    });
    expect(() => checkContentPrices(docs)).toThrow(NzfError);
    const [only] = contentPriceErrors(docs);
    expect(only!.code).toBe("CONTENT_PRICE_MISMATCH");
    expect(only!.message).toContain(
      "field animal_options[1].option_price: qurban: option 1 (Goat) shows $140 but the payments API charges $150",
    );
  });

  it("reads the fields the way an editor may leave them: missing, text, or no group", () => {
    expect(contentPricesOf({})).toEqual({ unitAmount: null, options: [] });
    expect(contentPricesOf({ unit_amount: "15", animal_options: [null, { code: 3, option_price: 110 }] })).toEqual({
      unitAmount: null,
      options: [
        { code: null, label: null, price: null },
        { code: null, label: null, price: 110 },
      ],
    });
  });
});
