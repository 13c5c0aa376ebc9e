// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/pay/fitr/?amount=99.5"}
/**
 * The donation island in happy-dom: hydration of the server markup, the multiplier, the fee shown,
 * messages beside fields, the form kept in sessionStorage, and the Stripe loader's errors. The
 * payments API is the real dev server on loopback.
 */
import { act } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startPaymentsDevServer, type PaymentsDevServer } from "../../server/payments-dev-server.js";
import { loadStripeJs, StripeLoadError } from "../stripe/load-stripe.js";
import type { DonationIslandProps, FundConfig } from "./config.js";
import DonationForm from "./donation-form.js";
import { STORAGE_PREFIX } from "./form-state.js";

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
const zakat: FundConfig = { fund: "zakat", title: "Zakat", path: "/pay/zakat/", presets: [{ amountCents: 10000 }], minimumCents: 1000, maximumCents: 10_000_000, frequencies: ["once", "monthly"] };

let api: PaymentsDevServer;
let root: Root | undefined;
let container: HTMLElement;

beforeAll(async () => {
  api = await startPaymentsDevServer({ port: 0 });
});
afterAll(() => api.stop());
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

const props = (funds: FundConfig[]): DonationIslandProps => ({ funds, formPath: funds[0]!.path, thankYouPath: "/pay/thank-you/", payments: { apiUrl: api.url, publishableKey: "pk_test_happydom" } });

describe("donation island (happy-dom)", () => {
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
    expect(document.getElementById(`${byLabel("E-mail address").id}-error`)!.textContent).toBe("Enter your e-mail address.");
    expect(api.requests.filter((r) => r.method === "POST")).toHaveLength(0);
  });

  it("fills in the amount from the calculator's ?amount= and shows the fee for covering it", async () => {
    await mount(props([zakat]));
    expect(byLabel("Amount (AUD)").value).toBe("99.50");
    // ceil((9950 + 30) × 10000 / 9830) = 10153 → fee $2.03 (docs/payments-api.md).
    expect(container.textContent).toContain("Add $2.03 to cover the card fee");
  });

  it("restores a saved form after a failed payment, ahead of the defaults", async () => {
    sessionStorage.setItem(`${STORAGE_PREFIX}/pay/zakat/`, JSON.stringify({ fund: "zakat", amount: "321", frequency: "monthly", firstName: "Omar", coverFees: true }));
    await mount(props([zakat]));
    // The query amount (from the calculator) still wins over the saved amount.
    expect(byLabel("Amount (AUD)").value).toBe("99.50");
    expect(byLabel("First name").value).toBe("Omar");
    expect(byLabel("Monthly").checked).toBe(true);
  });
});

describe("loadStripeJs", () => {
  it("turns a chunk that fails to load into 'Failed to load Stripe.js'", async () => {
    const error = await loadStripeJs("pk_test_x", () => Promise.reject(new TypeError("Failed to fetch dynamically imported module"))).catch((e) => e);
    expect(error).toBeInstanceOf(StripeLoadError);
    expect(error.message).toBe("Failed to load Stripe.js");
    expect(error.donorMessage).toMatch(/^Failed to load Stripe\.js\. .*try again\. Nothing was charged\.$/);
  });

  it("keeps the library's 'Stripe.js not available' and maps a null Stripe to it", async () => {
    const notAvailable = await loadStripeJs("pk_test_x", async () => ({ loadStripe: () => Promise.reject(new Error("Stripe.js not available")) })).catch((e) => e);
    expect(notAvailable.message).toBe("Stripe.js not available");
    const nullStripe = await loadStripeJs("pk_test_x", async () => ({ default: { loadStripe: async () => null } })).catch((e) => e);
    expect(nullStripe.message).toBe("Stripe.js not available");
  });
});
