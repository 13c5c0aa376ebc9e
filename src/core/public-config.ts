/**
 * The public configuration handed to islands through the HTML (`ctx.site.public`): the user pool
 * for accounts, the payments API and Stripe publishable key for donations. Everything here ends up
 * in every visitor's browser, so only public values belong here; each part is validated by its own
 * module, which refuses secrets. Read once at start-up from the environment.
 */
import { authOptionsFromEnv, resolveAuthConfig } from "../auth/config.js";
import { readPaymentsBuildConfig } from "../payments/config.js";

export function resolvePublicConfig(env: Record<string, string | undefined> = process.env): Record<string, unknown> {
  return {
    auth: resolveAuthConfig(authOptionsFromEnv(env)),
    payments: readPaymentsBuildConfig(env),
  };
}
