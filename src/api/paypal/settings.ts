/**
 * PayPal's settings for the service: with a client id and secret, PayPal is PayPal (through its
 * SDK, sandbox or live); without them, `nzf-build api` and watch mode use the local provider.
 * The secret is handed on, never printed.
 */
import { NzfError } from "../../core/errors.js";
import type { PayPalSettings } from "./sdk.js";

export function readPayPalSettings(env: Record<string, string | undefined>): PayPalSettings | null {
  const get = (name: string) => env[name]?.trim() || undefined;
  const clientId = get("NZF_PAYPAL_CLIENT_ID");
  const clientSecret = get("NZF_PAYPAL_CLIENT_SECRET");
  if (!clientSecret) return null;
  const fail = (subject: string, message: string) => new NzfError("API_CONFIG_INVALID", message, { subject });
  if (!clientId) throw fail("NZF_PAYPAL_CLIENT_ID", "NZF_PAYPAL_CLIENT_SECRET is set without NZF_PAYPAL_CLIENT_ID.");
  const environment = get("NZF_PAYPAL_ENVIRONMENT") ?? "sandbox";
  if (environment !== "sandbox" && environment !== "live")
    throw fail("NZF_PAYPAL_ENVIRONMENT", `NZF_PAYPAL_ENVIRONMENT is "${environment}"; it is sandbox or live.`);
  const webhookId = get("NZF_PAYPAL_WEBHOOK_ID");
  if (!webhookId || !/^[A-Za-z0-9]+$/.test(webhookId))
    throw fail(
      "NZF_PAYPAL_WEBHOOK_ID",
      "NZF_PAYPAL_WEBHOOK_ID (the webhook's id in PayPal's dashboard) is missing or malformed: PayPal's events cannot be verified without it.",
    );
  const apiBase = get("NZF_PAYPAL_API_BASE");
  if (apiBase && !/^http:\/\/(127\.0\.0\.1|localhost):\d+\/?$/.test(apiBase))
    throw fail("NZF_PAYPAL_API_BASE", "NZF_PAYPAL_API_BASE is only for a local stand-in: http://127.0.0.1:<port>.");
  if (apiBase && environment === "live")
    throw fail(
      "NZF_PAYPAL_API_BASE",
      "NZF_PAYPAL_API_BASE points live credentials at a local stand-in; unset one of them.",
    );
  return { clientId, clientSecret, environment, webhookId, ...(apiBase ? { apiBase } : {}) };
}
