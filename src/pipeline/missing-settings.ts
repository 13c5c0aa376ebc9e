/**
 * A production build of live content without the payment or sign-in settings publishes pay pages
 * that say payments are unavailable and an account page that cannot sign in, and said nothing
 * (issue 36). Such a build now fails in CI with SETTINGS_MISSING naming what is missing, unless the
 * site is meant to ship that way (--allow-missing-settings); outside CI it warns once, at the end.
 * The bundled sample (CI's own build, most tests) is a demonstration and is exempt.
 */
import { NzfError } from "../core/errors.js";

interface PublicSettings {
  auth?: unknown;
  payments?: { apiUrl?: string | null } | null;
}

/** The settings groups missing from `publicConfig`, each with the variables that give it. */
export function missingSettings(publicConfig: Record<string, unknown>): string[] {
  const config = publicConfig as PublicSettings;
  const missing: string[] = [];
  if (!config.payments?.apiUrl) missing.push("payments (PAYMENTS_API_URL, STRIPE_PUBLISHABLE_KEY)");
  if (!config.auth) missing.push("sign-in (NZF_COGNITO_USER_POOL_ID, NZF_COGNITO_CLIENT_ID)");
  return missing;
}

/** What is missing and what the site then does, in words. */
export function missingSettingsMessage(missing: string[]): string {
  const effects = [
    ...(missing.some((m) => m.startsWith("payments")) ? ["its pay pages say payments are unavailable"] : []),
    ...(missing.some((m) => m.startsWith("sign-in")) ? ["its account page cannot sign in"] : []),
  ];
  return `This build of live content has no ${missing.join(" and no ")} settings: ${effects.join(" and ")}`;
}

export function missingSettingsError(missing: string[]): NzfError {
  return new NzfError("SETTINGS_MISSING", `${missingSettingsMessage(missing)}; in CI that stops the build`, {
    subject: missing.map((m) => m.replace(/ \(.*$/, "")).join(", "),
  });
}
