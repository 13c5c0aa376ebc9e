/**
 * Stripe.js loaded on demand (src/client/stripe/load-stripe.ts): its chunk failing to load, and the
 * library failing or giving nothing, each become Stripe's own message. The library's `pure` entry is
 * replaced with vi.doMock, its shape chosen per test, and the loader imported again after it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

/** The loader as it runs when importing `@stripe/stripe-js/pure` gives what `pure` returns (or throws). */
async function loaderWith(pure: () => Record<string, unknown>) {
  vi.resetModules();
  vi.doMock("@stripe/stripe-js/pure", pure);
  return import("../../../src/client/stripe/load-stripe.js");
}

afterEach(() => {
  vi.doUnmock("@stripe/stripe-js/pure");
});

describe("loadStripeJs", () => {
  it("turns a chunk that fails to load into 'Failed to load Stripe.js'", async () => {
    const { loadStripeJs, StripeLoadError } = await loaderWith(() => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const error = await loadStripeJs("pk_test_x").catch((e) => e);
    expect(error).toBeInstanceOf(StripeLoadError);
    expect(error.message).toBe("Failed to load Stripe.js");
    expect(error.donorMessage).toMatch(/^Failed to load Stripe\.js\. .*try again\. Nothing was charged\.$/);
  });

  it("keeps the library's 'Stripe.js not available'", async () => {
    const { loadStripeJs, StripeLoadError } = await loaderWith(() => ({
      loadStripe: () => Promise.reject(new Error("Stripe.js not available")),
    }));
    const error = await loadStripeJs("pk_test_x").catch((e) => e);
    expect(error).toBeInstanceOf(StripeLoadError);
    expect(error.message).toBe("Stripe.js not available");
  });

  it("maps a null Stripe, from the CommonJS default export, to 'Stripe.js not available'", async () => {
    const asked: string[] = [];
    // A bundler that treats the entry as CommonJS gives no named export, only the default.
    const { loadStripeJs, StripeLoadError } = await loaderWith(() => ({
      loadStripe: undefined,
      default: {
        loadStripe: async (key: string) => {
          asked.push(key);
          return null;
        },
      },
    }));
    const error = await loadStripeJs("pk_test_x").catch((e) => e);
    expect(asked).toEqual(["pk_test_x"]);
    expect(error).toBeInstanceOf(StripeLoadError);
    expect(error.message).toBe("Stripe.js not available");
  });

  it("gives the Stripe the library made, with the publishable key it was asked for", async () => {
    const asked: string[] = [];
    const stripe = { elements: () => ({}) };
    const { loadStripeJs } = await loaderWith(() => ({
      loadStripe: async (key: string) => {
        asked.push(key);
        return stripe;
      },
    }));
    expect(await loadStripeJs("pk_test_y")).toBe(stripe);
    expect(asked).toEqual(["pk_test_y"]);
  });
});
