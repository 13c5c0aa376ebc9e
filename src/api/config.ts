/**
 * The service's settings from its environment (`nzf-build api`, the Lambda), read once. Secrets
 * (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, the database password in DATABASE_URL) are only
 * handed on, never printed: `describe` says which are set, not what they are.
 */
import { NzfError } from "../core/errors.js";
import type { StripeSettings } from "./stripe/settings.js";

export interface ApiSettings {
  stripe: StripeSettings | null;
  webhookSecret: string;
  databaseUrl?: string;
  /** The site's origins (NZF_API_ALLOWED_ORIGINS, comma-separated); "loopback" for local runs. */
  allowedOrigins: string[] | "loopback";
  /**
   * The site's public origin (SITE_URL, e.g. https://nzf.org.au): where PayPal returns a donor to
   * the account page after agreeing to a new amount (and what notices link to). Absent: not set.
   */
  siteUrl?: string;
}

/** SITE_URL as an origin (http or https, no path, query or fragment), or a clear refusal. */
export function siteOriginOf(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.pathname !== "/" ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  )
    throw new NzfError(
      "API_CONFIG_INVALID",
      `SITE_URL is not the site's origin: ${JSON.stringify(value.slice(0, 200))}.`,
      {
        subject: "SITE_URL",
        hint: "Set it to the site's public origin, http or https with no path, e.g. SITE_URL=https://nzf.org.au.",
      },
    );
  return url.origin;
}

export function readApiSettings(env: Record<string, string | undefined>): ApiSettings {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() ?? "";
  if (secretKey && !webhookSecret.startsWith("whsec_"))
    throw new NzfError("API_CONFIG_INVALID", "STRIPE_WEBHOOK_SECRET is missing or is not a whsec_… signing secret.", {
      subject: "STRIPE_WEBHOOK_SECRET",
    });
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const site = env.SITE_URL?.trim();
  const siteUrl = site ? siteOriginOf(site) : undefined;
  const origins = (env.NZF_API_ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    stripe: secretKey
      ? { secretKey, ...(env.STRIPE_API_BASE?.trim() ? { apiBase: env.STRIPE_API_BASE.trim() } : {}) }
      : null,
    webhookSecret,
    ...(databaseUrl ? { databaseUrl } : {}),
    allowedOrigins: origins.length ? origins : "loopback",
    ...(siteUrl ? { siteUrl } : {}),
  };
}

/** One line for the log: what is configured, with no secret in it. */
export function describe(settings: ApiSettings, driver: string): string {
  const stripe = settings.stripe
    ? `Stripe ${settings.stripe.secretKey.startsWith("sk_live_") ? "live" : "test"} mode${settings.stripe.apiBase ? ` at ${settings.stripe.apiBase}` : ""}`
    : "no Stripe key (card gifts answer 503)";
  return `${driver === "postgres" ? "PostgreSQL" : "PGlite"}, ${stripe}, CORS ${settings.allowedOrigins === "loopback" ? "loopback origins" : settings.allowedOrigins.join(" ")}, ${settings.siteUrl ? `donors return to ${settings.siteUrl}/account/` : "no SITE_URL (PayPal keeps donors on its page after a new amount)"}`;
}
