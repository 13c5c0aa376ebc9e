// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/pay/fitr/?amount=99.5"}
/**
 * The donation island in happy-dom: hydration of the server markup, the multiplier, the fee shown,
 * messages beside fields, the form kept in sessionStorage, and the Stripe loader's errors. The
 * payments API is the real service (src/api/, on PGlite, the Stripe stand-in as Stripe) on loopback,
 * in a worker thread: under happy-dom the globals (`Request`, `fetch`) are the page's, not Node's.
 */
import { repeatsAmount } from "../../../src/client/donation/gift-section.js";
import { en } from "../../../src/client/donation/words/en.js";
import { act } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { PaymentsUnavailable } from "../../../templates/pages/donation.js";
import { donationWords } from "../../../src/client/donation/words/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startPaymentsServiceThread, type PaymentsServiceThread } from "../../support/payments-service-thread.js";
import type { DonationIslandProps, FundConfig } from "../../../src/client/donation/config.js";
import DonationForm from "../../../src/client/donation/donation-form.js";
import { STORAGE_PREFIX } from "../../../src/client/donation/form-state.js";
import { loadValidation } from "../../../src/client/donation/validator.js";

// React's production build has no `act`; load the development build before any import runs.
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const fitr: FundConfig = {
  fund: "fitr",
  title: "Zakat al-Fitr",
  path: "/pay/fitr/",
  presets: [],
  minimumCents: 1000,
  maximumCents: 10_000_000,
  frequencies: ["once"],
  quantity: { unitCents: 1500, min: 1, max: 50, label: "people", unitLabel: "person" },
};
/** As the qurban page's content gives its animals: a code, a label and the price shown. */
const qurban = (lambCents = 45000): FundConfig => ({
  fund: "qurban",
  title: "Qurban",
  path: "/pay/qurban/",
  presets: [],
  minimumCents: 1000,
  maximumCents: 10_000_000,
  frequencies: ["once"],
  quantity: {
    unitCents: 11000,
    min: 1,
    max: 20,
    label: "animals",
    unitLabel: "animal",
    options: [
      { code: "cow-share-overseas", label: "One-seventh share of a cow (overseas)", unitCents: 11000 },
      { code: "goat-overseas", label: "Goat (overseas)", unitCents: 15000 },
      { code: "lamb-australia", label: "Lamb (in Australia)", unitCents: lambCents },
    ],
  },
});
const zakat: FundConfig = {
  fund: "zakat",
  title: "Zakat",
  path: "/pay/zakat/",
  presets: [{ amountCents: 10000 }],
  minimumCents: 1000,
  maximumCents: 10_000_000,
  frequencies: ["once", "monthly"],
};

let api: PaymentsServiceThread;
let root: Root | undefined;
let container: HTMLElement;

beforeAll(async () => {
  api = await startPaymentsServiceThread();
}, 60_000);
afterAll(() => api?.stop());
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = "";
  sessionStorage.clear();
});

async function mount(props: DonationIslandProps) {
  container = document.createElement("div");
  container.innerHTML = renderToString(<DonationForm {...props} />);
  document.body.append(container);
  await act(async () => {
    root = hydrateRoot(container, <DonationForm {...props} />);
  });
}

const byLabel = (text: string) => {
  const label = [...container.querySelectorAll("label")].find((l) => l.textContent === text)!;
  return document.getElementById(label.htmlFor) as HTMLInputElement;
};

async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    setter.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

const props = (funds: FundConfig[]): DonationIslandProps => ({
  funds,
  formPath: funds[0]!.path,
  thankYouPath: "/pay/thank-you/",
  payments: { apiUrl: api.url, publishableKey: "pk_test_happydom" },
  words: en,
});

describe("suggested amounts", () => {
  it("show an editor's label only when it says more than the amount", () => {
    for (const label of ["$1,000", "1,000 دولار", "١٬٠٠٠ دولار أسترالي", "$1000.00", "AUD 1,000"])
      expect(repeatsAmount(label, 100_000), label).toBe(true);
    for (const label of ["Feeds a family for a month", "$1,000 feeds a family", "$100", "100 people"])
      expect(repeatsAmount(label, 100_000), label).toBe(false);
    expect(repeatsAmount("$12.50", 1_250)).toBe(true);
  });
});

describe("donation island (happy-dom)", () => {
  it("without payments configured renders nothing: the page's own notice says so, with the contact page", async () => {
    await mount({ ...props([zakat]), payments: null });
    expect(container.innerHTML).toBe("");
    const notice = (lang: string) =>
      renderToStaticMarkup(<PaymentsUnavailable words={donationWords(lang)} lang={lang} />);
    expect(notice("en-au")).toContain("Online card payments are not available on this copy of the site.");
    expect(notice("en-au")).toContain('<a href="/contact/">contact our donor care team</a>');
    // From an Arabic page the contact page, only in English, says so.
    expect(notice("ar-ae")).toContain(
      '<a href="/contact/" hrefLang="en-au">تواصل مع فريق خدمة المتبرعين<span class="visually-hidden"> (بالإنجليزية)</span><span class="link-lang" lang="en" dir="ltr">EN</span></a>',
    );
  });

  it("checks a field as the donor leaves it, and clears the message once it is right", async () => {
    await mount(props([zakat]));
    const amount = byLabel("Amount (AUD)");
    const errorText = () => document.getElementById(`${amount.id}-error`)?.textContent ?? null;
    await type(amount, "1,20");
    // The check's code arrives on the first use of the form (validator.ts): the message follows it.
    const leave = () =>
      act(async () => {
        amount.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
        await loadValidation();
      });
    await leave();
    expect(errorText()).toBe(
      "Check the comma: put cents after a decimal point, like 1.20, and group thousands in threes, like 1,200.",
    );
    await type(amount, "120");
    await leave();
    expect(errorText()).toBeNull();
    // An empty field the donor only passed through waits for "Continue".
    const first = byLabel("First name");
    await act(async () => first.dispatchEvent(new FocusEvent("focusout", { bubbles: true })));
    expect(document.getElementById(`${first.id}-error`)).toBeNull();
  });

  it("splits a year's zakat into monthly instalments and shows the plan before paying", async () => {
    await mount(props([{ ...zakat, frequencies: ["once", "monthly-instalments"] }]));
    await type(byLabel("Amount (AUD)"), "489");
    await act(async () => byLabel("In monthly instalments").click());
    expect(byLabel("Split into").value).toBe("12");
    expect(container.querySelector(".don-plan")!.textContent).toMatch(
      /^12 payments of \$40\.75, from .+ to .+\. They stop when your \$489\.00 is paid\.$/,
    );
    expect(container.textContent).not.toContain("until you cancel");
  });

  it("hydrates, multiplies people by the price per person, and keeps what is typed in sessionStorage", async () => {
    const errors = vi.spyOn(console, "error");
    await mount(props([fitr]));
    await type(byLabel("Number of people"), "5");
    expect(container.querySelector(".don-multiply")!.textContent).toBe("5 × $15.00 = $75.00");
    // The amount query parameter does not apply to a per-person fund.
    expect(container.textContent).not.toContain("99.5");
    await type(byLabel("First name"), "Aisha");
    const saved = JSON.parse(sessionStorage.getItem(`${STORAGE_PREFIX}/pay/fitr/`)!);
    expect(saved).toMatchObject({ fund: "fitr", quantity: "5", firstName: "Aisha" });
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("shows each message beside its field and sends nothing while the form is invalid", async () => {
    await mount(props([fitr]));
    await type(byLabel("Number of people"), "51");
    await act(async () => container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
    const quantity = byLabel("Number of people");
    expect(quantity.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(`${quantity.id}-error`)!.textContent).toBe("Enter how many people, from 1 to 50.");
    expect(document.getElementById(`${byLabel("E-mail address").id}-error`)!.textContent).toBe(
      "Enter your e-mail address.",
    );
    expect((await api.requests()).filter((r) => r.method === "POST")).toHaveLength(0);
  });

  it("fills in the amount from the calculator's ?amount= and shows the fee for covering it", async () => {
    await mount(props([zakat]));
    expect(byLabel("Amount (AUD)").value).toBe("99.50");
    // ceil((9950 + 30) × 10000 / 9830) = 10153 → fee $2.03 (docs/payments-api.md).
    expect(container.textContent).toContain("Add $2.03 to cover the payment fee");
  });

  it("restores a saved form after a failed payment, ahead of the defaults", async () => {
    sessionStorage.setItem(
      `${STORAGE_PREFIX}/pay/zakat/`,
      JSON.stringify({ fund: "zakat", amount: "321", frequency: "monthly", firstName: "Omar", coverFees: true }),
    );
    await mount(props([zakat]));
    // The query amount (from the calculator) still wins over the saved amount.
    expect(byLabel("Amount (AUD)").value).toBe("99.50");
    expect(byLabel("First name").value).toBe("Omar");
    expect(byLabel("Monthly, until you cancel").checked).toBe(true);
  });
});

describe("qurban in the donation island (happy-dom)", () => {
  async function giveTwoLambs(config: FundConfig) {
    await mount({ ...props([config]), formPath: "/pay/qurban/" });
    const lamb = config.quantity!.options![2]!;
    await act(async () => byLabel(`${lamb.label}: $${(lamb.unitCents / 100).toFixed(2)}`).click());
    await type(byLabel("Number of animals"), "2");
    await type(byLabel("First name"), "Aisha");
    await type(byLabel("Last name"), "Rahman");
    await type(byLabel("E-mail address"), "aisha@example.com");
    await type(byLabel("Phone number"), "0412 345 678");
    const before = (await api.requests()).length;
    await act(async () => container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
    // The answer updates the form: wait inside act so React applies it before the assertions.
    // A CORS preflight (OPTIONS) may arrive first: wait for the POST itself.
    const post = async () =>
      (await api.requests()).slice(before).find((r) => r.method === "POST" && r.path === "/donations");
    await act(() => vi.waitFor(async () => expect(await post()).toBeDefined(), { timeout: 5_000 }));
    return (await post())!;
  }

  it("starts on the animal the content preselects, and on the first without one", async () => {
    const preselected = qurban();
    preselected.quantity!.defaultOption = 1;
    await mount({ ...props([preselected]), formPath: "/pay/qurban/" });
    expect(byLabel("Goat (overseas): $150.00").checked).toBe(true);
    expect(container.querySelector(".don-multiply")!.textContent).toBe("1 × $150.00 = $150.00");
    // Another donor, another page: nothing kept from the first form.
    act(() => root?.unmount());
    document.body.innerHTML = "";
    sessionStorage.clear();
    await mount({ ...props([qurban()]), formPath: "/pay/qurban/" });
    expect(byLabel("One-seventh share of a cow (overseas): $110.00").checked).toBe(true);
  });

  it("multiplies by the chosen animal's price and sends the option's code", async () => {
    const logged = await giveTwoLambs(qurban());
    expect(container.querySelector(".don-multiply")!.textContent).toBe("2 × $450.00 = $900.00");
    expect(logged).toMatchObject({ method: "POST", path: "/donations", status: 201 });
    const state = await (await fetch(`${api.url}/donations/${logged.donationId}`)).json();
    expect(state).toMatchObject({ fund: "qurban", amountCents: 90000, totalCents: 90000 });
  });

  it("shows the API's refusal of a stale price beside the number, and creates nothing", async () => {
    const created = await api.donationCount();
    const intents = async () =>
      (await api.stripeRequests()).filter((r) => r.path.startsWith("/v1/payment_intents")).length;
    const intentsBefore = await intents();
    const logged = await giveTwoLambs(qurban(40000));
    expect(logged.status).toBe(400);
    const message =
      "The price of Lamb (in Australia) is $450, not $400. Please reload the page to see the current prices, then try again.";
    await act(() =>
      vi.waitFor(() =>
        expect(document.getElementById(`${byLabel("Number of animals").id}-error`)?.textContent).toBe(message),
      ),
    );
    expect(container.querySelector('[role="alert"]')!.textContent).toBe(message);
    expect(await api.donationCount()).toBe(created);
    // Nothing was asked of Stripe either.
    expect(await intents()).toBe(intentsBefore);
  });
});
