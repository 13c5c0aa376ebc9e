// @vitest-environment happy-dom
/**
 * The calculator island in happy-dom, rendered on the "server" (renderToString) and hydrated as
 * the browser does, then driven through its inputs. Expected figures are worked out by hand in
 * the comments; the sample settings are silver $1.55/g, gold $165/g, nisab 595 g × $1.55 = $922.25.
 */
import { act } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import Calculator, { hydrateNow, type CalculatorProps } from "../../../src/client/islands/calculator.js";
import { STORAGE_KEY } from "../../../src/client/calculator/form-state.js";
import { calcEn } from "../../../src/client/calculator/words/en.js";
import { calcAr } from "../../../src/client/calculator/words/ar.js";

// vitest.config.ts sets NODE_ENV=production; React's production build has no `act`.
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const help = (text: string) => `<p>${text}</p>`;
const PROPS: CalculatorProps = {
  settings: {
    nisabBasis: "silver",
    silverPricePerGram: "1.55",
    goldPricePerGram: "165",
    pricesAsAt: "2026-11-01",
    longTermShareProxyPercent: "30",
    ratePercent: { lunar: "2.5", solar: "2.577" },
  },
  helpHtml: {
    cash: help("Cash help"),
    gold_silver: help("Metal help"),
    shares: help("Shares help"),
    receivables: help("Owed help"),
    business: help("Business help"),
    property: help("Property help"),
    crypto: help("Crypto help"),
    super: help("Compulsory superannuation is not zakatable."),
    other: help("Other help"),
    liabilities: help("Liabilities help"),
  },
  payPath: "/pay/zakat/",
  words: calcEn,
};

let container: HTMLElement;
let root: Root | undefined;
let recoverable: unknown[];

beforeEach(() => {
  localStorage.clear();
  document.body.innerHTML = "";
  container = document.createElement("div");
  document.body.append(container);
  recoverable = [];
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.useRealTimers();
});

/** Server render, then hydrate with the same identifierPrefix, like src/client/hydrate.ts. */
function mount(props: CalculatorProps = PROPS): string {
  const html = renderToString(<Calculator {...props} />, { identifierPrefix: "i0-" });
  container.innerHTML = html;
  act(() => {
    root = hydrateRoot(container, <Calculator {...props} />, {
      identifierPrefix: "i0-",
      onRecoverableError: (e) => recoverable.push(e),
    });
  });
  return html;
}

function field(label: string): HTMLInputElement {
  const found = [...container.querySelectorAll("label")].find((l) => l.textContent === label);
  if (!found) throw new Error(`no label "${label}"`);
  const input = document.getElementById(found.htmlFor) as HTMLInputElement | null;
  if (!input) throw new Error(`label "${label}" points at nothing`);
  return input;
}

/** Types like a person: React watches the value setter, so set it through the prototype. */
function type(input: HTMLInputElement, value: string) {
  act(() => {
    input.focus();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
function leave(input: HTMLInputElement) {
  act(() => input.blur());
}
function openSection(title: string) {
  const summary = [...container.querySelectorAll("summary")].find(
    (s) => s.querySelector(".calc-group-title")?.textContent === title,
  )!;
  act(() => {
    (summary.parentElement as HTMLDetailsElement).open = true;
    summary.parentElement!.dispatchEvent(new Event("toggle"));
  });
}
const summary = () => container.querySelector(".calc-summary")!.textContent;
const payLink = () => container.querySelector<HTMLAnchorElement>("a.calc-pay");

describe("the calculator island", () => {
  it("server-renders the empty form ready to use, then hydrates without a mismatch", () => {
    const html = mount();
    expect(html).toMatch(/<div class="calc-layout"><form/);
    expect(html).toContain("Prices as at 1 November 2026<");
    expect(recoverable).toEqual([]);
    // Nothing entered: below the nisab, nothing to pay.
    expect(summary()).toBe(
      "Assets $0.00 less liabilities $0.00 leaves $0.00, below the nisab of $922.25: no zakat is due.",
    );
    expect(payLink()).toBeNull();
  });

  it("accepts amounts as people type them and updates the result live", () => {
    mount();
    type(field("Cash and bank balances (including offset accounts)"), "1,200.50");
    // $1,200.50 ≥ $922.25; 120,050 c × 2.5% = 3,001.25 c → $30.01.
    expect(summary()).toBe(
      "Assets $1,200.50 less liabilities $0.00 leaves $1,200.50, at or above the nisab of $922.25: zakat due at 2.5% is $30.01.",
    );
    expect(payLink()!.getAttribute("href")).toBe("/pay/zakat/?amount=30.01#give");

    openSection("What you owe now");
    type(field("Bills and tax due"), " $300 ");
    // 1,200.50 − 300 = 900.50 < 922.25: nothing due, and no Pay button.
    expect(summary()).toBe(
      "Assets $1,200.50 less liabilities $300.00 leaves $900.50, below the nisab of $922.25: no zakat is due.",
    );
    expect(payLink()).toBeNull();

    openSection("Shares");
    type(field("Long-term shares (market value)"), "1000");
    // 30% of $1,000 = $300 counts: assets 1,500.50, net 1,200.50, due $30.01 again.
    expect(summary()).toContain("Assets $1,500.50 less liabilities $300.00 leaves $1,200.50");
    expect(container.textContent).toContain("30% of the market value is counted");

    const solar = [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
      (r) => r.value === "solar",
    )!;
    act(() => solar.click());
    // 120,050 c × 2.577% = 3,093.6885 c → $30.94.
    expect(summary()).toContain("zakat due at 2.577% is $30.94.");
    expect(payLink()!.getAttribute("href")).toBe("/pay/zakat/?amount=30.94#give");
  });

  it("values gold by grams and purity, and by value, with more than one item", () => {
    mount();
    openSection("Gold and silver");
    type(field("Weight in grams"), "10");
    type(field("Purity"), "18");
    // 10 g × 18/24 × $165 = $1,237.50; × 2.5% = 3,093.75 c → $30.94 (half up).
    expect(summary()).toBe(
      "Assets $1,237.50 less liabilities $0.00 leaves $1,237.50, at or above the nisab of $922.25: zakat due at 2.5% is $30.94.",
    );
    const addGold = [...container.querySelectorAll("button")].find((b) => b.textContent === "Add another gold item")!;
    act(() => addGold.click());
    const byValue = [...container.querySelectorAll<HTMLInputElement>('fieldset.calc-metal input[type="radio"]')].filter(
      (r) => r.value === "value",
    )[1]!;
    act(() => byValue.click());
    type(field("Value in dollars"), "62.50");
    expect(summary()).toContain("Assets $1,300.00");
    expect(container.querySelector(".calc-group-total")!.textContent).toBe("$1,300.00");
  });

  it("shows a message under a field that is not a number, marks it invalid, and keeps every other figure", () => {
    mount();
    const cash = field("Cash and bank balances (including offset accounts)");
    type(cash, "5000");
    openSection("Cryptocurrency");
    const crypto = field("Cryptocurrency");
    type(crypto, "abc");
    // While still typing, no message yet; the last good result stays.
    expect(crypto.getAttribute("aria-invalid")).toBeNull();
    expect(summary()).toContain("Assets $5,000.00");
    leave(crypto);
    expect(crypto.getAttribute("aria-invalid")).toBe("true");
    const message = document.getElementById(crypto.getAttribute("aria-describedby")!.split(" ").pop()!)!;
    expect(message.textContent).toBe("Enter an amount in dollars, like 1,200.50.");
    expect(message.closest(".calc-field")).toBe(crypto.closest(".calc-field"));
    expect(cash.value).toBe("5000");
    expect(crypto.value).toBe("abc");
    expect(summary()).toBe("Check the field marked in the form; the result will update when it is fixed.");
    expect(container.querySelector(".calc-error-list a")!.getAttribute("href")).toBe(`#${crypto.id}`);
    expect(payLink()).toBeNull();

    type(crypto, "250");
    expect(crypto.getAttribute("aria-invalid")).toBeNull();
    expect(container.querySelector(".calc-error")).toBeNull();
    expect(summary()).toContain("Assets $5,250.00");
  });

  it("measures against silver by default and against gold when the donor chooses it, each explained in one sentence", () => {
    mount();
    const nisab = container.querySelector("fieldset.calc-nisab")!;
    expect(nisab.querySelector("legend")!.textContent).toBe("Which nisab do you measure your wealth against?");
    const [silver, gold] = [...nisab.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    // 595 g × $1.55 = $922.25; 85 g × $165 = $14,025.00.
    expect(silver!.closest("label")!.textContent).toBe(" Silver: 595 g, $922.25");
    expect(gold!.closest("label")!.textContent).toBe(" Gold: 85 g, $14,025.00");
    expect(silver!.checked).toBe(true);
    for (const radio of [silver!, gold!]) {
      const sentence = document.getElementById(radio.getAttribute("aria-describedby")!)!.textContent!;
      expect(sentence.match(/[.!?]/g)).toHaveLength(1);
    }
    type(field("Cash and bank balances (including offset accounts)"), "10,000");
    // Silver: 10,000 ≥ 922.25, 2.5% = $250.00.
    expect(summary()).toBe(
      "Assets $10,000.00 less liabilities $0.00 leaves $10,000.00, at or above the nisab of $922.25: zakat due at 2.5% is $250.00.",
    );
    act(() => gold!.click());
    // Gold: 10,000 < 14,025: nothing due, and the explanation names the gold measure.
    expect(summary()).toBe(
      "Assets $10,000.00 less liabilities $0.00 leaves $10,000.00, below the nisab of $14,025.00: no zakat is due.",
    );
    expect(container.querySelector(".calc-explain dt")!.textContent).toBe("Nisab (85 g of gold at $165.00 per gram)");
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!).nisabBasis).toBe("gold");
    type(field("Cash and bank balances (including offset accounts)"), "14,025");
    // Exactly at the gold nisab is due: 14,025 × 2.5% = $350.625 → $350.63 (half up).
    expect(summary()).toContain("at or above the nisab of $14,025.00: zakat due at 2.5% is $350.63.");
    expect(payLink()!.getAttribute("href")).toBe("/pay/zakat/?amount=350.63#give");
  });

  it("restores the saved nisab choice, and figures saved before the choice existed use silver", () => {
    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ yearType: "lunar", nisabBasis: "gold", amounts: { cash: "20000" } }),
    );
    mount();
    expect(container.querySelector<HTMLInputElement>('fieldset.calc-nisab input[value="gold"]')!.checked).toBe(true);
    expect(summary()).toContain("nisab of $14,025.00");
    act(() => root!.unmount());
    root = undefined;
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ yearType: "lunar", amounts: { cash: "20000" } }));
    mount();
    expect(summary()).toContain("nisab of $922.25");
  });

  it("a section with a field in error shows its total as pending, then to check, never the old figure; other sections stay live", () => {
    mount();
    const cash = field("Cash and bank balances (including offset accounts)");
    const total = (title: string) =>
      [...container.querySelectorAll("summary")]
        .find((s) => s.querySelector(".calc-group-title")?.textContent === title)!
        .querySelector(".calc-group-total")?.textContent ?? null;
    type(cash, "500");
    expect(total("Cash and bank")).toBe("$500.00");
    type(cash, "500x");
    expect(total("Cash and bank")).toBe("Total pending");
    leave(cash);
    expect(total("Cash and bank")).toBe("Check this section");
    openSection("What you owe now");
    type(field("Debts due now"), "120");
    // The liabilities section still adds up while cash is in error.
    expect(total("What you owe now")).toBe("less $120.00");
    type(cash, "700");
    expect(total("Cash and bank")).toBe("$700.00");
  });

  it("'Next' opens the next section and moves focus to its heading; the last section leads to the result", async () => {
    mount();
    const next = () => [...container.querySelectorAll<HTMLButtonElement>("details[open] button.calc-next")];
    expect(next()[0]!.textContent).toBe("Next: Gold and silver");
    act(() => next()[0]!.click());
    await act(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
    const focused = document.activeElement!;
    expect(focused.tagName).toBe("SUMMARY");
    expect(focused.querySelector(".calc-group-title")!.textContent).toBe("Gold and silver");
    expect((focused.parentElement as HTMLDetailsElement).open).toBe(true);
    expect([...container.querySelectorAll("details[open] .calc-group-title")].map((t) => t.textContent)).toEqual([
      "Gold and silver",
    ]);
    openSection("What you owe now");
    const seeResult = next().find((b) => b.textContent === "See my result")!;
    act(() => seeResult.click());
    await act(() => new Promise((r) => requestAnimationFrame(() => r(undefined))));
    expect(document.activeElement!.textContent).toBe("Your zakat");
  });

  it("the running bar shows the amount due with 'Pay this', and waits while a field's message shows", () => {
    mount();
    const bar = () => container.querySelector(".calc-bar")!;
    expect(bar().querySelector(".calc-bar-total")!.textContent).toBe("Zakat due: $0.00");
    expect(bar().querySelector("a")).toBeNull();
    const cash = field("Cash and bank balances (including offset accounts)");
    type(cash, "12,000");
    expect(bar().querySelector(".calc-bar-total")!.textContent).toBe("Zakat due: $300.00");
    expect(bar().querySelector("a")!.textContent).toBe("Pay this");
    expect(bar().querySelector("a")!.getAttribute("href")).toBe("/pay/zakat/?amount=300.00#give");
    type(cash, "12,000x");
    leave(cash);
    expect(bar().querySelector(".calc-bar-total")!.textContent).toBe("Zakat due: check the marked fields");
    expect(bar().querySelector("a")).toBeNull();
  });

  it("keeps the figures in localStorage and restores them on the next visit", () => {
    mount();
    type(field("Cash and bank balances (including offset accounts)"), "12,000");
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY)!);
    expect(saved.amounts.cash).toBe("12,000");
    act(() => root!.unmount());
    root = undefined;
    container.innerHTML = "";

    localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ ...saved, yearType: "solar", amounts: { cash: "12,000", debts: "1,000", crypto: "1.2.3" } }),
    );
    mount();
    expect(recoverable).toEqual([]);
    expect(field("Cash and bank balances (including offset accounts)").value).toBe("12,000");
    expect(field("Debts due now").value).toBe("1,000"); // its section opened because it has a figure
    // A saved figure that does not parse shows its message straight away.
    expect(field("Cryptocurrency").getAttribute("aria-invalid")).toBe("true");
    type(field("Cryptocurrency"), "");
    // 11,000 × 2.577% = $283.47 exactly.
    expect(summary()).toContain("leaves $11,000.00, at or above the nisab of $922.25: zakat due at 2.577% is $283.47.");
  });

  it("ignores saved figures it cannot read", () => {
    localStorage.setItem(STORAGE_KEY, "{not json");
    mount();
    expect(field("Cash and bank balances (including offset accounts)").value).toBe("");
    expect(recoverable).toEqual([]);
  });

  it("'Clear my figures' empties the form and the browser's copy", () => {
    mount();
    type(field("Cash and bank balances (including offset accounts)"), "12,000");
    expect(localStorage.getItem(STORAGE_KEY)).not.toBeNull();
    const clear = [...container.querySelectorAll("button")].find((b) => b.textContent === "Clear my figures")!;
    act(() => clear.click());
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
    expect(field("Cash and bank balances (including offset accounts)").value).toBe("");
    expect(summary()).toContain("no zakat is due");
    expect(container.textContent).toContain("Your figures have been cleared");
  });

  it("shows the price age against the browser's date, warning after 30 days", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 11, 15, 12)); // 15 December 2026: 44 days after 1 November
    const html = mount();
    expect(html).toContain("Prices as at 1 November 2026<"); // the server knows no "today"
    expect(container.textContent).toContain("Prices as at 1 November 2026 (44 days ago)");
    expect(container.querySelector(".calc-warning")!.textContent).toMatch(/more than 30 days old/);
    expect(recoverable).toEqual([]);
    // The warning is something the server's markup lacks: the island hydrates while the page loads.
    expect(hydrateNow(PROPS)).toBe(true);
  });

  it("gives no warning when the prices are 30 days old", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 11, 1, 9)); // 1 December: 30 days
    mount();
    expect(container.textContent).toContain("(30 days ago)");
    expect(container.querySelector(".calc-warning")).toBeNull();
    // Nothing saved and nothing to warn about: the server's markup is the calculator as it starts.
    expect(hydrateNow(PROPS)).toBe(false);
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ amounts: { cash: "5" } }));
    expect(hydrateNow(PROPS)).toBe(true);
  });
});

/** Visible text with Latin words in it (the "$" of the amount boxes and digits are not words). */
const latinWords = (text: string) => text.match(/[A-Za-z]{2,}/g) ?? [];

describe("the calculator island in Arabic", () => {
  // The help is the content's (the Arabic calculate_page's help fields).
  const helpHtml = Object.fromEntries(Object.keys(PROPS.helpHtml).map((k) => [k, help("نص المساعدة")]));
  const AR: CalculatorProps = {
    ...PROPS,
    helpHtml: helpHtml as CalculatorProps["helpHtml"],
    payPath: "/ar-ae/pay/zakat/",
    words: calcAr,
  };

  it("speaks Arabic throughout: labels, buttons, result, figures from Intl, the pay link in Arabic", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 10, 21, 10)); // 20 days after the prices
    const html = mount(AR);
    expect(recoverable).toEqual([]);
    expect(html).toContain("الأسعار بتاريخ 1 نوفمبر 2026<");
    expect(container.textContent).toContain("الأسعار بتاريخ 1 نوفمبر 2026 (قبل 20 يومًا)");
    type(field("النقد والأرصدة المصرفية (ومنها حسابات الموازنة)"), "20000");
    const gold = [...container.querySelectorAll("label")].find((l) =>
      l.textContent!.startsWith(" الذهب: 85\u00a0غرام"),
    )!;
    expect(gold.textContent).toBe(" الذهب: 85\u00a0غرام، 14,025.00\u00a0دولار\u00a0أسترالي");
    act(() => gold.querySelector("input")!.click());
    // $20,000 ≥ 85 g × $165 = $14,025; × 2.5% = $500.00.
    expect(summary()).toBe(
      "أموالك 20,000.00\u00a0دولار\u00a0أسترالي ناقص ما عليك 0.00\u00a0دولار\u00a0أسترالي يساوي 20,000.00\u00a0دولار\u00a0أسترالي، وهو يبلغ النصاب البالغ 14,025.00\u00a0دولار\u00a0أسترالي أو يزيد عليه: الزكاة الواجبة بنسبة 2.5‎%‎ هي 500.00\u00a0دولار\u00a0أسترالي.",
    );
    expect(payLink()!.textContent).toBe("ادفع زكاتي");
    expect(payLink()!.getAttribute("href")).toBe("/ar-ae/pay/zakat/?amount=500.00#give");
    // Every section open, an item of gold by weight: every visible word is Arabic.
    openSection("الذهب والفضة");
    type(field("الوزن بالغرام"), "10");
    type(field("العيار"), "18");
    for (const group of Object.values(calcAr.groups)) openSection(group);
    const lines = container.querySelector(".calc-lines")!.textContent!;
    expect(lines).toContain(
      "(10\u00a0غرام من الذهب عيار 18 قيراط بسعر 165.00\u00a0دولار\u00a0أسترالي لغرام الذهب الخالص)",
    );
    expect(latinWords(container.textContent!)).toEqual([]);
    expect(
      latinWords([...container.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label")).join(" ")),
    ).toEqual([]);
  });

  it("gives each field's message in Arabic, and counts the fields to check with Arabic plurals", () => {
    mount(AR);
    const cash = field("النقد والأرصدة المصرفية (ومنها حسابات الموازنة)");
    type(cash, "1,20");
    leave(cash);
    expect(document.getElementById(`${cash.id}-error`)!.textContent).toBe(
      "راجع الفواصل: افصل كل ثلاث خانات من الآلاف، مثل 1,200.50، وضع السنتات بعد النقطة.",
    );
    expect(summary()).toBe("راجع الحقل المشار إليه في النموذج، وستتحدث النتيجة عند تصحيحه.");
    openSection("الذهب والفضة");
    const grams = field("الوزن بالغرام");
    type(grams, "10");
    const purity = field("العيار");
    type(purity, "916");
    leave(purity);
    expect(document.getElementById(`${purity.id}-error`)!.textContent).toBe(
      "القيراط من 1 إلى 24. لرقم دمغة مثل 916، اختر الأجزاء من الألف.",
    );
    expect(summary()).toBe("راجع الحقلين المشار إليهما في النموذج، وستتحدث النتيجة عند تصحيحهما.");
    expect([...container.querySelectorAll(".calc-error-list a")].map((a) => a.textContent)).toEqual([
      "النقد والأرصدة المصرفية (ومنها حسابات الموازنة)",
      "قطعة الذهب 1: العيار",
    ]);
    expect(container.querySelector(".calc-bar-total")!.textContent).toBe("الزكاة الواجبة: راجع الحقول المشار إليها");
  });
});
