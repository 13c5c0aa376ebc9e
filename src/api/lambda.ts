/**
 * The payments API as an AWS Lambda function behind API Gateway's HTTP API (stage `main`,
 * ap-southeast-2; src/api/deploy/). The secrets come from Secrets Manager (the template passes
 * their ARNs) or the environment; the database from DATABASE_URL (or its parts in a secret). One
 * application per warm instance: the database pool and the Stripe client outlive a request.
 */
import { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { accountServiceFromEnv } from "../account-api/service.js";
import { isTaxDeductible } from "../payments/fund-rules.js";
import { createApiApp } from "./app.js";
import { servicePlanProvider } from "./plan-provider.js";
import { createRulesSource, prismicLoader } from "./fund-rules-source.js";
import { readApiSettings } from "./config.js";
import { corsPolicy } from "./cors.js";
import { openDatabase } from "./db/open.js";
import { readLambdaSecrets } from "./deploy/secrets.js";
import { sweepExpiredDonations } from "./donations/expire.js";
import { runScheduledCharges } from "./jobs/scheduled-charges.js";
import { sendUpdate, type Update } from "./mail/send-update.js";
import { NzfError } from "../core/errors.js";
import type Stripe from "stripe";
import type { Logger } from "../core/logger.js";
import { createStripeClient } from "./stripe/client.js";
import { type WronglyPaused, repairWronglyPaused } from "./stripe/paused-not-started.js";
import { readReceiptSettings } from "../receipts/settings.js";
import { defaultOf } from "../core/options.js";
import { createPayPalApi } from "./paypal/sdk.js";
import { createSdkPayPal } from "./paypal/sdk-provider.js";
import { readPayPalSettings } from "./paypal/settings.js";
import { createReceiptsService } from "./receipts/service.js";

type Handler = ReturnType<typeof handle>;

let ready:
  | Promise<{
      handler: Handler;
      sweep: () => Promise<unknown>;
      jobs: () => Promise<unknown>;
      update: (update: Update) => Promise<unknown>;
    }>
  | undefined;

async function start() {
  const env = { ...process.env, ...(await readLambdaSecrets(process.env)) };
  const settings = readApiSettings(env);
  // PostgreSQL (RDS) as deployed; without DATABASE_URL, PGlite in NZF_DATA_DIR as `nzf-build api`
  // has it (tests invoke the handlers on "memory://").
  const database = await openDatabase(
    settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: env.NZF_DATA_DIR?.trim() || ".nzf-data" },
  );
  const rulesSource = createRulesSource({
    load: prismicLoader(env.PRISMIC_REPOSITORY || defaultOf("repository"), env.PRISMIC_ACCESS_TOKEN || undefined),
    refreshMs: 5 * 60_000,
  });
  await rulesSource.ready;
  const deps = {
    db: database.db,
    stripe: settings.stripe ? createStripeClient(settings.stripe) : null,
    webhookSecret: settings.webhookSecret,
    // PayPal through its SDK when its credentials are set; otherwise PayPal calls answer 503.
    ...(() => {
      const paypal = readPayPalSettings(env);
      if (!paypal) return { paypal: null, paypalApi: null };
      const api = createPayPalApi(paypal);
      return { paypal: createSdkPayPal(api), paypalApi: api };
    })(),
    cors: corsPolicy(settings.allowedOrigins),
    ...(settings.siteUrl ? { siteUrl: settings.siteUrl } : {}),
    // Prices and limits from the content at Prismic's master ref (last good kept), read every 5 minutes.
    rulesFor: rulesSource.rulesFor,
    rulesForRequest: rulesSource.rulesForRequest,
    // The seasons' dates the pages show: new gifts are checked against them, and the job moves charges with them.
    seasons: rulesSource.seasons,
  };
  // Receipts through Amazon SES (NZF_MAIL_TRANSPORT=ses) with the function's role.
  const receipts = createReceiptsService(database.db, {
    settings: readReceiptSettings(env),
    taxDeductible: (fund) => isTaxDeductible(fund),
  });
  // The donor account API on the same database, when the site's user pool is configured.
  const account = accountServiceFromEnv(
    env,
    database.db as never,
    undefined,
    // Plan changes act on whoever bills the plan: Stripe or PayPal.
    { provider: servicePlanProvider(deps) },
  );
  const api = createApiApp(
    { ...deps, receipts, ...(account ? { identifyDonor: account.identifyDonor } : {}) },
    account ? { graphql: account.graphql } : {},
  );
  // API Gateway's path carries the stage (/main/donations); a custom domain's does not.
  const app = new Hono().route("/main", api).route("/", api);
  return {
    handler: handle(app),
    sweep: async () => ({ expired: await sweepExpiredDonations(deps), receipts: await receipts?.deliverDue() }),
    jobs: async () => ({
      // Once per container: instalments an older version showed paused while Stripe will charge them.
      pausedNotStarted: deps.stripe ? (await pausedChecked(deps, deps.stripe)).length : 0,
      charges: await runScheduledCharges({ ...deps, receipts }),
      receipts: await receipts?.deliverDue(),
    }),
    update: async (update: Update) => {
      // The unsubscribe links point at the service's public address: the one the site calls.
      const serviceUrl = env.PAYMENTS_API_URL?.trim();
      if (!receipts || !serviceUrl)
        throw new NzfError(
          "API_CONFIG_INVALID",
          "Sending an update needs the receipt settings (NZF_FOUNDATION_NAME, NZF_FOUNDATION_ABN, a mail transport) and PAYMENTS_API_URL in the service's environment.",
          { subject: receipts ? "PAYMENTS_API_URL" : "NZF_FOUNDATION_NAME" },
        );
      return sendUpdate(database.db, receipts, update, { serviceUrl });
    },
  };
}

/** Logged to CloudWatch, the Lambda's output. */
const consoleLogger: Logger = {
  debug() {},
  info: (_label, message) => console.info(message),
  warn: (_label, message) => console.warn(message),
  error: (_label, message) => console.error(message),
};

let pausedCheck: Promise<WronglyPaused[]> | undefined;
/** repairWronglyPaused once per container (again after a failure, said in the log). */
function pausedChecked(deps: Parameters<typeof repairWronglyPaused>[0], stripe: Stripe) {
  pausedCheck ??= repairWronglyPaused(deps, stripe, consoleLogger).catch((error: Error) => {
    pausedCheck = undefined;
    console.warn(`the check of paused instalment plans could not run: ${error.message}`);
    return [];
  });
  return pausedCheck;
}

export const handler: Handler = async (event, context) => {
  ready ??= start().catch((error) => {
    ready = undefined;
    throw error;
  });
  const { handler: run } = await ready;
  return run(event, context);
};

/** The scheduled expiry sweep (an EventBridge rule every 15 minutes, src/api/deploy/). */
export async function sweep(): Promise<unknown> {
  ready ??= start();
  return (await ready).sweep();
}

/**
 * An e-mail update to every confirmed subscriber, invoked by hand with the update as the event
 * (`aws lambda invoke --function-name <jobs function> --payload '{"id":"2027-ramadan",…}'`,
 * docs/deploy.md); the same event again sends nobody anything twice.
 */
export async function sendUpdates(event: Update): Promise<unknown> {
  ready ??= start();
  return (await ready).update(event);
}

/** The scheduled jobs (an EventBridge rule every 15 minutes, src/api/deploy/): scheduled charges, then due receipts. */
export async function runJobs(): Promise<unknown> {
  ready ??= start();
  return (await ready).jobs();
}
