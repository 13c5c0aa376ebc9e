/**
 * The public configuration handed to islands through the HTML (`ctx.site.public`): the user pool
 * for accounts, the payments API and Stripe publishable key for donations. Everything here ends up
 * in every visitor's browser, so only public values belong here; each part is validated by its own
 * module, which refuses secrets. The settings are declared in ./options.ts and resolved with the
 * rest of the configuration by ./settings.ts; this reads them from the environment alone.
 */
import { readOptions } from "./options.js";
import { publicConfigFrom, type PublicConfig } from "./settings.js";

export type { PublicConfig } from "./settings.js";

export function resolvePublicConfig(env: Record<string, string | undefined> = process.env): PublicConfig {
  return publicConfigFrom(readOptions("build", {}, env));
}
