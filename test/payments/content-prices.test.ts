/**
 * The content holds the prices: the page shows them and the payments service charges them. The
 * build checks only that they can be charged (contentPriceProblems: positive, dollars and cents,
 * each qurban option with its own code) and refuses the content otherwise, naming document and
 * field; a price an editor changes is not an error. The sample's prices are DEFAULT_FUND_RULES'
 * (what the service charges without content).
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_FUND_RULES } from "../../src/payments/fund-rules.js";
import { contentPriceProblems, rulesWithContentPrices, type ContentPrices } from "../../src/payments/pricing.js";
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

describe("the sample content's prices are the defaults", () => {
  it.each(["fitr", "fidyah", "qurban"] as const)("%s", (fund) => {
    const pages = docs.filter((d) => d.type === fund);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(contentPriceProblems(fund, DEFAULT_FUND_RULES[fund], pricesOf(page))).toEqual([]);
  });

  it("offers every qurban option the API prices, at $110, $150 and $450", () => {
    const qurban = docs.find((d) => d.type === "qurban" && d.lang === "en-au")!;
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

  it("takes another price or another animal as the content's to set", () => {
    expect(
      contentPriceProblems("qurban", qurban, {
        options: [
          { ...lamb, price: 500 },
          { code: "camel", label: "Camel", price: 900 },
        ],
      }),
    ).toEqual([]);
    expect(contentPriceProblems("fitr", DEFAULT_FUND_RULES.fitr, { unitAmount: 16.5 })).toEqual([]);
  });

  it("names a price that cannot be charged, a missing and a repeated code, and no options", () => {
    const problems = contentPriceProblems("qurban", qurban, {
      options: [
        { ...lamb, price: 0 },
        { code: "", label: "Goat", price: 150 },
        lamb,
        { code: "cow", label: "Cow", price: 1.234 },
      ],
    });
    expect(problems).toEqual([
      "qurban: option 1 (Lamb (in Australia)) has the price 0: enter a price above $0 in dollars and cents.",
      "qurban: option 2 (Goat) has no code. Give it a permanent code, like lamb-australia.",
      'qurban: option 3 (Lamb (in Australia)) repeats the code "lamb-australia". Each option needs its own code.',
      "qurban: option 4 (Cow) has the price 1.234: enter a price above $0 in dollars and cents.",
    ]);
    expect(contentPriceProblems("qurban", qurban, { options: [] })).toEqual([
      "qurban: the page lists no options, so nothing can be paid. Add at least one, with a code and a price.",
    ]);
  });

  it("checks a per-unit price, and ignores funds without one", () => {
    expect(contentPriceProblems("fitr", DEFAULT_FUND_RULES.fitr, { unitAmount: -15 })).toEqual([
      "fitr: the page's unit_amount is -15, not a price above $0 in dollars and cents. Enter the price, like 15 or 15.50.",
    ]);
    expect(contentPriceProblems("zakat", DEFAULT_FUND_RULES.zakat, { unitAmount: -1 })).toEqual([]);
  });

  it("gives the service the content's prices, keeping the defaults where the content has none", () => {
    const rules = rulesWithContentPrices(qurban, {
      options: [
        { ...lamb, price: 500 },
        { code: "goat-overseas", label: "Goat", price: 0 },
      ],
    });
    expect(rules.quantity!.options).toEqual([
      { code: "lamb-australia", label: "Lamb (in Australia)", unitCents: 50_000 },
    ]);
    expect(rulesWithContentPrices(DEFAULT_FUND_RULES.fitr, { unitAmount: 16.5 }).quantity!.unitCents).toBe(1650);
    expect(rulesWithContentPrices(DEFAULT_FUND_RULES.fitr, {}).quantity!.unitCents).toBe(1500);
  });
});

describe("the build refuses content whose prices cannot be charged", () => {
  const edited = (edit: (doc: Doc) => void) =>
    (snapshot.documents as unknown as Doc[]).map((d) => {
      const copy = structuredClone(d);
      edit(copy);
      return copy;
    }) as unknown as PrismicDocument[];

  it("passes the sample content, and a changed price", () => {
    expect(() => checkContentPrices(snapshot.documents)).not.toThrow();
    const changed = edited((d) => {
      if (d.type === "qurban") d.data.animal_options[2].option_price = 500;
    });
    expect(() => checkContentPrices(changed)).not.toThrow();
  });

  it("names the document and the field of every problem, all at once", () => {
    const docs = edited((d) => {
      if (d.type === "qurban" && d.lang === "en-au") d.data.animal_options[2].option_price = -400;
      if (d.type === "fidyah" && d.lang === "en-au") d.data.unit_amount = 0;
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
      ["CONTENT_PRICE_INVALID", "8QMtUcKFkHr2dYrZ"],
      ["CONTENT_PRICE_INVALID", "hXOn5toTSeVvsub9"],
    ]);
    expect(errors[0]!.message).toBe(
      "Document 8QMtUcKFkHr2dYrZ (fidyah, en-au), field unit_amount: fidyah: the page's unit_amount is 0, not a price above $0 in dollars and cents. Enter the price, like 15 or 15.50.",
    );
    expect(errors[1]!.message).toContain(
      "Document hXOn5toTSeVvsub9 (qurban, en-au), field animal_options[2].option_price:",
    );
    expect(formatError(thrown)).toContain("2 donation page price failures");
  });

  it("plans a price that cannot be charged as a problem that stops the build, beside the others", async () => {
    // The build stops on it before any image or page (src/pipeline/build.ts, stopOnInvalidContent),
    // listing the run's other problems with it: test/content/content-blame-cli.test.ts runs that.
    const docs = edited((d) => {
      if (d.type === "fitr" && d.lang === "en-au") d.data.unit_amount = -16.5;
      if (d.type === "global" && d.lang === "en-au") d.data.contact_email = "not an address";
    });
    const plan = await planContent(
      { ...snapshot, documents: docs },
      createContentGraph(docs, snapshot.languages),
      undefined,
      root,
    );
    expect(plan.problems).toContainEqual(
      expect.objectContaining({ code: "CONTENT_PRICE_INVALID", documentId: "Dt5VKtEz14QFSIkH" }),
    );
    expect(plan.problems).toContainEqual(
      expect.objectContaining({ code: "DOCUMENT_FIELD_INVALID", field: "contact_email" }),
    );
  });

  it("throws the one error itself when there is one, and counts group items as Prismic shows them", () => {
    const docs = edited((d) => {
      if (d.type === "qurban")
        d.data.animal_options = [{}, { code: "goat-overseas", option_label: "Goat", option_price: -1 }];
    });
    expect(() => checkContentPrices(docs)).toThrow(NzfError);
    const [only] = contentPriceErrors(docs);
    expect(only!.code).toBe("CONTENT_PRICE_INVALID");
    expect(only!.message).toContain("field animal_options[1].option_price: qurban: option 1 (Goat) has the price -1");
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
