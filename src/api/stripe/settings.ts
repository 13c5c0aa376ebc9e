/**
 * The Stripe settings and their check, without the SDK: the command line checks them before a
 * service starts (src/cli/settings.ts), and loading the SDK's 217 modules for that would slow every
 * command's start, a build's included. The key is never logged: errors name the variable, not its value.
 */
import { NzfError } from "../../core/errors.js";

export interface StripeSettings {
  secretKey: string;
  /** Origin of another Stripe API (STRIPE_API_BASE: watch mode's local stand-in); absent in production. */
  apiBase?: string;
}

/** Throws API_CONFIG_INVALID, naming the variable, for a key or host Stripe's SDK could not use. */
export function checkStripeSettings(settings: StripeSettings): void {
  if (!/^(sk|rk)_(test|live)_\w+$/.test(settings.secretKey))
    throw new NzfError("API_CONFIG_INVALID", "STRIPE_SECRET_KEY is not a Stripe secret key (sk_test_…, sk_live_…).", {
      subject: "STRIPE_SECRET_KEY",
    });
  if (settings.apiBase) hostOptions(settings.apiBase);
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
