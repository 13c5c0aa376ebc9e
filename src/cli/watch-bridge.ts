/**
 * Watch mode as the CLI calls it: `runWatch(config, { logger, port, host, publicConfig })`.
 * This stands in for src/watch/run-watch.ts, which the watch-mode rewrite provides with the same
 * signature; when it lands, main.ts imports that instead and this file goes.
 */
import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import type { PublicConfig } from "./settings.js";

export interface RunWatchOptions {
  logger: Logger;
  port: number;
  host: string;
  publicConfig: PublicConfig;
}

export async function runWatch(config: BuildConfig, { logger, port, host, publicConfig }: RunWatchOptions): Promise<void> {
  const { runWatch: watch } = await import("../watch/watch.js");
  let served = publicConfig;
  if (!publicConfig.payments.apiUrl) {
    // Developers get the local implementation of the payments API, so the donation forms work end to end.
    const { startPaymentsDevServer } = await import("../server/payments-dev-server.js");
    const dev = await startPaymentsDevServer({ logger });
    const key = process.env.STRIPE_PUBLISHABLE_KEY || "pk_test_local_development";
    served = { ...publicConfig, payments: { apiUrl: dev.url, publishableKey: key } };
    logger.info("watch", `payments: local payments API at ${dev.url}${process.env.STRIPE_PUBLISHABLE_KEY ? "" : " (set STRIPE_PUBLISHABLE_KEY to a Stripe test key for the card step)"}`);
  }
  await watch(config, { logger, port, host, buildDeps: { publicConfig: served } });
}
