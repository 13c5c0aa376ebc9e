/**
 * Payments build configuration: the API base URL and the Stripe publishable key are baked into the
 * donation island at build time. Read once, at start-up, with clear errors; and a scanner the build
 * can run over dist/ so that no secret key ever ships (a secret key in the browser would let anyone
 * refund, charge or read every payment).
 */
import { NzfError } from "../core/errors.js";

export interface PaymentsBuildConfig {
  /** PAYMENTS_API_URL without a trailing slash; null when payments are not configured (sample builds). */
  apiUrl: string | null;
  /** STRIPE_PUBLISHABLE_KEY (pk_live_… or pk_test_…); null together with apiUrl. */
  publishableKey: string | null;
  /**
   * NZF_PAYPAL_CLIENT_ID: the PayPal REST app's client ID, public by design (it is in the SDK's
   * script URL). Null without it: the forms offer cards only. Needs the payments API, which creates
   * and captures the PayPal orders with the app's secret. Absent (not null), so a build without it
   * writes exactly what it wrote before PayPal existed.
   */
  paypalClientId?: string;
}

/** A PayPal client ID: PayPal's are 80 characters of letters, digits, "-" and "_"; "sb" is the SDK's sandbox shortcut. */
const PAYPAL_CLIENT_ID = /^(?:sb|[A-Za-z0-9_-]{20,128})$/;

const SECRET_KEY = /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{8,}|\bwhsec_[0-9A-Za-z]{8,}/g;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** "sk_live_51Hx…": enough to recognise a key in a log without leaking it. */
const mask = (key: string) => `${key.slice(0, 12)}…`;

export function readPaymentsBuildConfig(env: Record<string, string | undefined>): PaymentsBuildConfig {
  const apiUrl = env.PAYMENTS_API_URL?.trim() || null;
  const publishableKey = env.STRIPE_PUBLISHABLE_KEY?.trim() || null;
  if (publishableKey && /^(?:sk|rk)_/.test(publishableKey)) {
    throw new NzfError(
      "CONFIG_INVALID",
      `STRIPE_PUBLISHABLE_KEY holds a secret key (${mask(publishableKey)}); it would be published to every visitor, so the build stopped.`,
      {
        subject: "STRIPE_PUBLISHABLE_KEY",
        hint: "Use the publishable key (pk_live_… or pk_test_…) from Stripe Dashboard > Developers > API keys, and roll the secret key you pasted if it was ever committed or shared.",
      },
    );
  }
  if (publishableKey && !/^pk_(?:live|test)_[0-9A-Za-z]+$/.test(publishableKey)) {
    throw new NzfError("CONFIG_INVALID", "STRIPE_PUBLISHABLE_KEY is not a Stripe publishable key.", {
      subject: "STRIPE_PUBLISHABLE_KEY",
      hint: "It starts with pk_live_ (production) or pk_test_ (test mode): Stripe Dashboard > Developers > API keys.",
    });
  }
  if (!apiUrl !== !publishableKey) {
    const missing = apiUrl ? "STRIPE_PUBLISHABLE_KEY" : "PAYMENTS_API_URL";
    throw new NzfError(
      "CONFIG_INVALID",
      `Card payments need both PAYMENTS_API_URL and STRIPE_PUBLISHABLE_KEY; ${missing} is not set.`,
      {
        subject: missing,
        hint: "Set both (payments on) or neither (the donation pages show the other ways to give).",
      },
    );
  }
  const paypalClientId = env.NZF_PAYPAL_CLIENT_ID?.trim() || null;
  if (paypalClientId && !PAYPAL_CLIENT_ID.test(paypalClientId)) {
    throw new NzfError("CONFIG_INVALID", "NZF_PAYPAL_CLIENT_ID is not a PayPal client ID.", {
      subject: "NZF_PAYPAL_CLIENT_ID",
      hint: "Copy the Client ID (not the secret) of the REST app from PayPal Developer Dashboard > Apps & Credentials: 80 letters, digits, - and _.",
    });
  }
  if (paypalClientId && !apiUrl) {
    throw new NzfError(
      "CONFIG_INVALID",
      "NZF_PAYPAL_CLIENT_ID is set but the payments API is not: PayPal orders are created and captured by the payments API.",
      {
        subject: "NZF_PAYPAL_CLIENT_ID",
        hint: "Set PAYMENTS_API_URL and STRIPE_PUBLISHABLE_KEY too, or unset NZF_PAYPAL_CLIENT_ID.",
      },
    );
  }
  if (!apiUrl) return { apiUrl: null, publishableKey: null };
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new NzfError("CONFIG_INVALID", `PAYMENTS_API_URL "${apiUrl}" is not a URL.`, {
      subject: "PAYMENTS_API_URL",
      hint: "Use the API's base URL, e.g. https://<api-id>.execute-api.ap-southeast-2.amazonaws.com/main",
    });
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    throw new NzfError(
      "CONFIG_INVALID",
      `PAYMENTS_API_URL must use https (only a loopback dev server may use http); got ${url.origin}.`,
      { subject: "PAYMENTS_API_URL" },
    );
  }
  if (url.search || url.hash) {
    throw new NzfError("CONFIG_INVALID", "PAYMENTS_API_URL must not have a query string or fragment.", {
      subject: "PAYMENTS_API_URL",
    });
  }
  return { apiUrl: url.href.replace(/\/+$/, ""), publishableKey, ...(paypalClientId ? { paypalClientId } : {}) };
}

/** Secret-looking Stripe keys in a text (masked), for a build check over every file in dist/. */
export function findSecretKeys(text: string): string[] {
  // The pattern runs only where its fixed part occurs (a substring search is many times faster).
  if (!text.includes("_live_") && !text.includes("_test_") && !text.includes("whsec_")) return [];
  return [...text.matchAll(SECRET_KEY)].map((m) => mask(m[0]));
}
