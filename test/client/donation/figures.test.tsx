// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/pay/zakat/"}
/**
 * Every figure the form shows is the figure charged (issue 41): the cover-the-fee label, the summary
 * and the plan against planGift, the function the payments backend charges with; and "today" is
 * Sydney's date, the backend's, for a donor anywhere. One test per figure.
 */
import { act } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DonationIslandProps, FundConfig } from "../../../src/client/donation/config.js";
import DonationForm from "../../../src/client/donation/donation-form.js";
import { formatsFor } from "../../../src/client/donation/format.js";
import { en } from "../../../src/client/donation/words/en.js";
import { ar } from "../../../src/client/donation/words/ar.js";
import { planGift } from "../../../src/payments/plan.js";
import { todayIn } from "../../../src/payments/schedules.js";

vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const zakat: FundConfig = {
  fund: "zakat",
  title: "Zakat",
  path: "/pay/zakat/",
  presets: [{ amountCents: 25000 }],
  defaultAmountCents: 25000,
  minimumCents: 1000,
  maximumCents: 10_000_000,
  frequencies: ["once", "monthly", "monthly-instalments"],
};

let root: Root | undefined;
let container: HTMLElement;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
  sessionStorage.clear();
  vi.useRealTimers();
});

const props = (words = en): DonationIslandProps => ({
  funds: [zakat],
  formPath: zakat.path,
  thankYouPath: "/pay/thank-you/",
  // Nothing is sent in these tests: the address is never called.
  payments: { apiUrl: "http://127.0.0.1:9/", publishableKey: "pk_test_happydom" },
  words,
});

async function mount(words = en) {
  container = document.createElement("div");
  container.innerHTML = renderToString(<DonationForm {...props(words)} />);
  document.body.append(container);
  await act(async () => {
    root = hydrateRoot(container, <DonationForm {...props(words)} />);
  });
}

const byLabel = (text: string | RegExp) => {
  const label = [...container.querySelectorAll("label")].find((l) =>
    typeof text === "string" ? l.textContent === text : text.test(l.textContent ?? ""),
  )!;
  return document.getElementById(label.htmlFor) as HTMLInputElement;
};

async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

const feeLabel = () => byLabel(/payment fee/).labels![0]!.textContent;
/** The summary's rows: term → value. */
const summary = () =>
  Object.fromEntries(
    [...container.querySelectorAll(".don-summary dt")].map((dt) => [
      dt.textContent,
      dt.nextElementSibling!.textContent,
    ]),
  );
const money = (cents: number) => formatsFor(en).money(cents);

/** $457.50 in 12 monthly instalments with the fee covered, as in the issue. */
async function instalments() {
  await mount();
  await type(byLabel("Amount (AUD)"), "457.50");
  await act(async () => byLabel("In monthly instalments").click());
  expect(byLabel("Split into").value).toBe("12");
  const plan = planGift({
    frequency: "monthly-instalments",
    today: todayIn("Australia/Sydney"),
    giftCents: 45750,
    coverFees: true,
    instalmentCount: 12,
  });
  if (!plan.ok) throw new Error(plan.message);
  const before = feeLabel();
  await act(async () => byLabel(/payment fee/).click());
  return { plan: plan.plan, before };
}

describe("$457.50 in 12 monthly instalments, fee covered: each figure is the one charged", () => {
  it("the label's fee per payment is the summary's fee, charged on each payment", async () => {
    const { plan, before } = await instalments();
    // The figures: 11 payments of $38.12 and one of $38.18, each with a $0.97 fee.
    expect(plan.charge.feeCents).toBe(97);
    expect(before).toContain(`Add ${money(97)} to each payment`);
    expect(summary()["Payment fee you are covering"]).toBe(money(plan.charge.feeCents));
  });

  it("the label's fees in all are what the schedule charges beyond the whole gift", async () => {
    const { plan, before } = await instalments();
    const feesInAll = plan.schedule.totalCents! - 45750;
    expect(feesInAll).toBe(1164);
    expect(before).toBe(`Add ${money(97)} to each payment to cover the payment fee, ${money(feesInAll)} in all`);
    // Not the fee on the whole gift as if charged at once ($8.22), which the label said before.
    expect(before).not.toContain("$8.22");
  });

  it("'Your gift each month' is the first payment's gift", async () => {
    const { plan } = await instalments();
    expect(summary()["Your gift each month"]).toBe(money(plan.charge.amountCents));
    expect(plan.charge.amountCents).toBe(3812);
  });

  it("'Charged each time' is the first payment as charged", async () => {
    const { plan } = await instalments();
    expect(summary()["Charged each time"]).toBe(money(plan.schedule.charges[0]!.amountCents));
    expect(plan.schedule.charges[0]!.amountCents).toBe(3909);
  });

  it("'Total over 12 charges' is the schedule's total", async () => {
    const { plan } = await instalments();
    expect(summary()["Total over 12 charges"]).toBe(money(plan.schedule.totalCents!));
    expect(plan.schedule.totalCents).toBe(46914);
  });

  it("the plan's sentence names the regular and the last payment as charged", async () => {
    const { plan } = await instalments();
    const last = plan.schedule.charges.at(-1)!.amountCents;
    expect(last).toBe(3915);
    expect(container.querySelector(".don-plan strong")!.textContent).toMatch(
      new RegExp(`^12 payments, from .+ to .+: 11 of \\${money(3909)} and a last one of \\${money(last)}$`),
    );
  });

  it("'Your whole gift' is the gift typed", async () => {
    await instalments();
    expect(summary()["Your whole gift"]).toBe(money(45750));
  });
});

describe("the cover-the-fee label for other schedules", () => {
  it("a one-off gift: the fee on the gift, the summary's fee", async () => {
    await mount();
    await type(byLabel("Amount (AUD)"), "457.50");
    // ceil((45750 + 30) × 10000 / 9830) = 46572 → $8.22.
    expect(feeLabel()).toBe(`Add ${money(822)} to cover the payment fee`);
    await act(async () => byLabel(/payment fee/).click());
    expect(summary()["Payment fee you are covering"]).toBe(money(822));
  });

  it("monthly until cancelled: the fee on each payment, and no total (there is no end)", async () => {
    await mount();
    await type(byLabel("Amount (AUD)"), "50");
    await act(async () => byLabel("Monthly, until you cancel").click());
    // ceil(5030 × 10000 / 9830) = 5117 → $1.17 each month.
    expect(feeLabel()).toBe(`Add ${money(117)} to each payment to cover the payment fee`);
    await act(async () => byLabel(/payment fee/).click());
    expect(summary()["Payment fee you are covering"]).toBe(money(117));
  });

  it("in Arabic: the count's plural from Intl.PluralRules, 12 دفعة and 3 دفعات", async () => {
    await mount(ar);
    await act(async () => byLabel("على أقساط شهرية").click());
    const choices = [...byLabel("قسّمها على").querySelectorAll("option")].map((o) => o.textContent);
    expect(choices).toContain("12 دفعة شهرية");
    expect(choices).toContain("3 دفعات شهرية");
    expect(choices).toContain("دفعتان شهريتان");
    expect(choices.join(" ")).not.toContain("12 دفعات");
  });
});

describe("one 'today' from the form to the thank-you page", () => {
  let zone: string | undefined;
  beforeAll(() => {
    zone = process.env.TZ;
    return () => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    };
  });

  it("a donor in Perth at 21:30 on 27 Nov is shown Sydney's 28 Nov, the day the backend charges, as Sydney's", async () => {
    process.env.TZ = "Australia/Perth";
    vi.useFakeTimers({ toFake: ["Date"] });
    // 13:30 UTC: 21:30 in Perth on the 27th, 00:30 on the 28th in Sydney (summer time).
    vi.setSystemTime(new Date("2026-11-27T13:30:00Z"));
    expect(new Date().getDate()).toBe(27);
    await mount();
    await type(byLabel("Amount (AUD)"), "50");
    const dates = container.querySelector(".don-dates")!.textContent!;
    expect(dates).toBe(`${formatsFor(en).date("2026-11-28")} (today in Sydney)`);
    expect(dates).not.toContain("27");
  });

  it("a donor in Sydney's day sees 'Today'", async () => {
    process.env.TZ = "Australia/Melbourne";
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-27T13:30:00Z"));
    await mount();
    await type(byLabel("Amount (AUD)"), "50");
    expect(container.querySelector(".don-dates")!.textContent).toBe("Today");
  });

  it("instalments start on Sydney's date", async () => {
    process.env.TZ = "America/Los_Angeles";
    vi.useFakeTimers({ toFake: ["Date"] });
    // 06:00 on the 27th in Los Angeles, 01:00 on the 28th in Sydney.
    vi.setSystemTime(new Date("2026-11-27T14:00:00Z"));
    await mount();
    await type(byLabel("Amount (AUD)"), "1200");
    await act(async () => byLabel("In monthly instalments").click());
    expect(container.querySelector(".don-plan")!.textContent).toContain(
      `from ${formatsFor(en).shortDate("2026-11-28")} to ${formatsFor(en).shortDate("2027-10-28")}`,
    );
  });
});
