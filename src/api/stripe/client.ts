/**
 * The Stripe SDK, configured once: the secret key from the environment (or Secrets Manager in
 * Lambda), the API version pinned to the one this SDK release was written for, and optionally
 * another host (`STRIPE_API_BASE`, e.g. the local stand-in at http://127.0.0.1:12111) parsed into
 * the SDK's host, port and protocol. The key is never logged: errors name the variable, not its value.
 */
import Stripe from "stripe";
import { NzfError } from "../../core/errors.js";

export interface StripeSettings {
  secretKey: string;
  /** Origin of another Stripe API (STRIPE_API_BASE: watch mode's local stand-in); absent in production. */
  apiBase?: string;
  /** Retries of a failed call, each with the same idempotency key (default 2). */
  maxNetworkRetries?: number;
}

export function createStripeClient(settings: StripeSettings): Stripe {
  if (!/^(sk|rk)_(test|live)_\w+$/.test(settings.secretKey))
    throw new NzfError("API_CONFIG_INVALID", "STRIPE_SECRET_KEY is not a Stripe secret key (sk_test_…, sk_live_…).", {
      subject: "STRIPE_SECRET_KEY",
    });
  return new Stripe(settings.secretKey, {
    apiVersion: Stripe.API_VERSION as Stripe.LatestApiVersion,
    maxNetworkRetries: settings.maxNetworkRetries ?? 2,
    timeout: 20_000,
    appInfo: { name: "nzf-build payments API" },
    telemetry: false,
    ...(settings.apiBase ? hostOptions(settings.apiBase) : {}),
  });
}

/** `http://127.0.0.1:12111` → the SDK's host, port and protocol. */
export function hostOptions(apiBase: string): { host: string; port: number; protocol: "http" | "https" } {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new NzfError("API_CONFIG_INVALID", `STRIPE_API_BASE "${apiBase}" is not a URL.`, {
      subject: "STRIPE_API_BASE",
    });
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || (url.pathname !== "/" && url.pathname !== ""))
    throw new NzfError("API_CONFIG_INVALID", `STRIPE_API_BASE "${apiBase}" must be an http(s) origin with no path.`, {
      subject: "STRIPE_API_BASE",
    });
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443,
    protocol,
  };
}

export { Stripe };
