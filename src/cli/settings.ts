/**
 * The one resolution of the declared settings (src/core/options.ts) into the typed configuration a command
 * runs with. Every command that builds (build, --watch, webhook) gets its build configuration and
 * the public configuration for the browser (accounts, payments) from here, so a setting means the
 * same in each of them and a bad value stops each of them before anything is built.
 */
import { resolve } from "node:path";
import { NzfError } from "../core/errors.js";
import { buildConfigFrom, type BuildConfig } from "../core/config.js";
import {
  describeSource,
  flagAttribute,
  flagName,
  given,
  defaultOf,
  OPTIONS,
  readOptions,
  text,
  type CommandName,
  type OptionGroup,
  type OptionKey,
  type OptionSpec,
  type OptionValue,
  type OptionValues,
} from "../core/options.js";
import { authOptionsFromEnv, resolveAuthConfig } from "../auth/config.js";
import type { PublicAuthConfig } from "../auth/types.js";
import { readPaymentsBuildConfig, type PaymentsBuildConfig } from "../payments/config.js";
import type { WebhookCommandOptions, WebhookConfig } from "../server/webhook-server.js";
import { deploySettingsFrom, type DeploySettings, type OfflinePlanSettings } from "../deploy/settings.js";
import { readApiSettings } from "../api/config.js";
import { readPayPalSettings } from "../api/paypal/settings.js";
import { readReceiptSettings } from "../receipts/settings.js";
import { corsPolicy } from "../api/cors.js";
import { checkStripeSettings } from "../api/stripe/settings.js";

/** Handed to islands through the HTML: only public values (each part refuses secrets). */
export type PublicConfig = {
  auth: PublicAuthConfig | null;
  payments: PaymentsBuildConfig;
};

export interface WatchSettings {
  port: number;
  host: string;
}

export interface Settings {
  command: CommandName;
  build: BuildConfig;
  /** Absent for `fetch`, which builds nothing. */
  publicConfig?: PublicConfig;
  /** Present for `watch`. */
  watch?: WatchSettings;
  /** Present for `preview`: the same port rules and loopback address as watch mode. */
  preview?: WatchSettings;
  /** Present for `webhook`. */
  webhook?: WebhookConfig;
  /**
   * Present when the command deploys: `deploy`, a build with `--deploy`, the webhook server with a
   * bucket; a dry run without a bucket plans offline (OfflinePlanSettings).
   */
  deploy?: DeploySettings | OfflinePlanSettings;
  /** Present for `api`. */
  api?: ApiCommandSettings;
}

export interface ApiCommandSettings {
  port: number;
  host: string;
  dataDir: string;
  /** The service's own settings (Stripe, the database URL, CORS), checked by src/api/config.ts. */
  env: Record<string, string | undefined>;
}

/** Watch mode serves on loopback only: it is a development server. */
export const WATCH_HOST = "127.0.0.1";

export function resolveSettings(
  command: CommandName,
  flags: Record<string, unknown>,
  env: Record<string, string | undefined>,
  defaultRoot?: string,
): Settings {
  refuseForeignFlags(command, flags);
  const values = readOptions(command, flags, env);
  // Ports and the secret first: they are cheap to check and a mistake there would otherwise show
  // only after a build.
  const watch = command === "watch" ? { port: parsePort(values.watchPort), host: WATCH_HOST } : undefined;
  const webhook = command === "webhook" ? webhookConfigFrom(values) : undefined;
  const deploy = deployFrom(command, values);
  if (webhook && deploy && webhook.deployCommand) {
    throw new NzfError(
      "CONFIG_INVALID",
      "The webhook server was given both a bucket to deploy to and a deploy command; it runs one of them after each build.",
      {
        subject: values.bucket.source,
        hint: "Keep the bucket (NZF_S3_BUCKET: nzf-build deploys in-process, docs/deploy.md) and remove NZF_DEPLOY_COMMAND, or the other way round.",
      },
    );
  }
  const build = buildConfigFrom(values, { defaultRoot });
  if (command === "preview")
    return { command, build, preview: { port: parsePort(values.previewPort), host: WATCH_HOST } };
  if (command === "api") {
    const api = apiConfigFrom(values);
    return { command, build, api: { ...api, dataDir: resolve(build.root, api.dataDir) } };
  }
  if (command === "deploy") return { command, build, ...(deploy ? { deploy } : {}) };
  if (command === "fetch") return { command, build: { ...build, fetch: true, content: "fetched" } };
  if (command === "webhook") build.fetch = true;
  if (command === "webhook") build.content = "fetched";
  return {
    command,
    build,
    publicConfig: publicConfigFrom(values),
    ...(watch ? { watch } : {}),
    ...(webhook ? { webhook } : {}),
    ...(deploy ? { deploy } : {}),
  };
}

function deployFrom(command: CommandName, values: OptionValues): DeploySettings | OfflinePlanSettings | undefined {
  if (command !== "deploy" && command !== "build" && command !== "webhook") return undefined;
  const asked = command === "deploy" || values.deploy.value === true;
  const dryRun = values.dryRun.value === true;
  if (dryRun && !asked) {
    throw new NzfError("CONFIG_INVALID", "--dry-run prints a deploy's plan, and this build does not deploy.", {
      subject: "--dry-run",
      hint: "Add --deploy (nzf-build --deploy --dry-run), or run nzf-build deploy --dry-run to see what the published site would upload.",
    });
  }
  const settings = deploySettingsFrom(values, { required: asked, dryRun });
  // A plain build never deploys, even with NZF_S3_BUCKET set (CI may set it for a later step);
  // the webhook server deploys whenever it has a bucket.
  return command === "build" && !asked ? undefined : settings;
}

/**
 * Accounts and payments, validated by their own modules (src/auth/config.ts, src/payments/config.ts),
 * which read them by variable name and name the variable in their errors; these settings have no flag.
 */
export function publicConfigFrom(values: OptionValues): PublicConfig {
  const byVariable = (group: OptionGroup, given?: "given") =>
    Object.fromEntries(
      (OPTIONS as readonly OptionSpec[])
        .filter((s) => s.group === group)
        .filter((s) => !given || values[s.key as OptionKey].source !== "default")
        .map((s) => [s.env![0]!, text(values, s.key as OptionKey)]),
    );
  return {
    // Only what was given: the sign-in settings' defaults are resolveAuthConfig's own, and a setting
    // given without a user pool is an error there (it would have no effect).
    auth: resolveAuthConfig(authOptionsFromEnv(byVariable("accounts", "given"))),
    payments: readPaymentsBuildConfig(byVariable("payments")),
  };
}

export function webhookConfigFrom(values: OptionValues): WebhookConfig {
  const secret = text(values, "webhookSecret")?.trim();
  if (!secret) {
    throw new NzfError("CONFIG_INVALID", "The webhook server needs a secret and none was given, so it did not start.", {
      subject: "NZF_WEBHOOK_SECRET",
      hint: "Pass --secret <value> or set NZF_WEBHOOK_SECRET, and enter the same value as the secret of the webhook in Prismic (Settings > Webhooks).",
    });
  }
  const timeout = values.deployTimeout;
  const seconds = Number(timeout.value);
  if (!(seconds > 0) || !Number.isFinite(seconds)) {
    throw new NzfError("CONFIG_INVALID", `The deploy timeout ${given(timeout)} is not a positive number of seconds.`, {
      subject: timeout.source,
    });
  }
  const host = text(values, "webhookHost")?.trim();
  if (!host)
    throw new NzfError("CONFIG_INVALID", `The webhook host from ${describeSource(values.webhookHost)} is empty.`, {
      subject: values.webhookHost.source,
    });
  const deployCommand = text(values, "deployCommand")?.trim();
  return {
    port: parsePort(values.webhookPort),
    host,
    secret,
    repository: text(values, "repository") ?? defaultOf("repository"),
    ...(deployCommand ? { deployCommand } : {}),
    deployTimeoutMs: seconds * 1000,
    deployPassEnv: (text(values, "deployEnv") ?? "").split(/[\s,]+/).filter(Boolean),
  };
}

/** Options first, then NZF_WEBHOOK_PORT (or PORT), NZF_WEBHOOK_HOST, NZF_WEBHOOK_SECRET, PRISMIC_REPOSITORY, NZF_DEPLOY_COMMAND: the declaration in src/core/options.ts. */
export function resolveWebhookConfig(
  options: WebhookCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): WebhookConfig {
  return webhookConfigFrom(readOptions("webhook", { ...options }, env));
}

/** 0 to 65535 (0: any free port). */
export function parsePort(port: OptionValue): number {
  const raw = String(port.value ?? "").trim();
  const number = Number(raw);
  if (!/^\d+$/.test(raw) || number > 65535) {
    throw new NzfError("CONFIG_INVALID", `${given(port)} is not a port number (0 to 65535).`, {
      subject: port.source,
      hint: `Give a whole number from 1 to 65535 (0 picks a free port), e.g. ${port.source.startsWith("-") ? `${port.source} 4321` : `${port.source}=4321`}.`,
    });
  }
  return number;
}

/** `nzf-build api`: the port, address and data folder, and the service's variables checked here, naming their source. */
export function apiConfigFrom(values: OptionValues): ApiCommandSettings {
  const host = text(values, "apiHost")?.trim();
  if (!host)
    throw new NzfError("CONFIG_INVALID", `The API host from ${describeSource(values.apiHost)} is empty.`, {
      subject: values.apiHost.source,
    });
  const env: Record<string, string | undefined> = {
    DATABASE_URL: text(values, "databaseUrl"),
    STRIPE_SECRET_KEY: text(values, "stripeSecretKey"),
    STRIPE_WEBHOOK_SECRET: text(values, "stripeWebhookSecret"),
    STRIPE_API_BASE: text(values, "stripeApiBase"),
    NZF_API_ALLOWED_ORIGINS: text(values, "apiAllowedOrigins"),
    NZF_FOUNDATION_NAME: text(values, "foundationName"),
    NZF_FOUNDATION_ABN: text(values, "foundationAbn"),
    NZF_RECEIPT_FROM: text(values, "receiptFrom"),
    NZF_RECEIPT_CONTACT_EMAIL: text(values, "receiptContactEmail"),
    NZF_DONOR_CARE_EMAIL: text(values, "donorCareEmail"),
    NZF_MAIL_TRANSPORT: text(values, "mailTransport"),
    NZF_SMTP_URL: text(values, "smtpUrl"),
    NZF_SES_REGION: text(values, "sesRegion"),
    NZF_SES_ENDPOINT: text(values, "sesEndpoint"),
    NZF_PAYPAL_CLIENT_ID: text(values, "paypalClientId"),
    NZF_PAYPAL_CLIENT_SECRET: text(values, "paypalClientSecret"),
    NZF_PAYPAL_ENVIRONMENT: text(values, "paypalEnvironment"),
    NZF_PAYPAL_WEBHOOK_ID: text(values, "paypalWebhookId"),
    NZF_PAYPAL_API_BASE: text(values, "paypalApiBase"),
    SITE_URL: text(values, "apiSiteUrl"),
  };
  try {
    // The service's own checks, at start, before anything listens: the receipts' (a wrong ABN would
    // be printed on every receipt) and PayPal's (events cannot be verified without the webhook id).
    readReceiptSettings({ ...env, AWS_REGION: process.env.AWS_REGION });
    readPayPalSettings(env);
    const settings = readApiSettings(env);
    if (settings.stripe) checkStripeSettings(settings.stripe);
    if (settings.databaseUrl && !/^postgres(ql)?:\/\//.test(settings.databaseUrl))
      throw new NzfError("API_CONFIG_INVALID", "DATABASE_URL is not a postgres:// URL.", { subject: "DATABASE_URL" });
    corsPolicy(settings.allowedOrigins);
  } catch (error) {
    if (!(error instanceof NzfError)) throw error;
    // The service's own check, named as every setting's error is: by where the value came from.
    throw new NzfError("CONFIG_INVALID", `${error.message} (${error.subject ?? "environment"})`, {
      subject: error.subject,
      hint: error.hint,
    });
  }
  return { port: parsePort(values.apiPort), host, dataDir: text(values, "dataDir") ?? ".nzf-data", env };
}

const COMMAND_LINE: Record<CommandName, string> = {
  build: "nzf-build",
  watch: "nzf-build --watch",
  preview: "nzf-build preview",
  fetch: "nzf-build fetch",
  webhook: "nzf-build webhook",
  deploy: "nzf-build deploy",
  api: "nzf-build api",
};

/** A flag typed for a command that does not use it is an error, never silently dropped. */
function refuseForeignFlags(command: CommandName, flags: Record<string, unknown>): void {
  for (const attribute of Object.keys(flags)) {
    const specs = (OPTIONS as readonly OptionSpec[]).filter((s) => flagAttribute(s) === attribute);
    if (specs.length === 0 || specs.some((s) => s.commands.includes(command))) continue;
    const users = [...new Set(specs.flatMap((s) => s.commands))].map((c) => COMMAND_LINE[c]);
    const flag = flagName(specs[0]!)!;
    throw new NzfError(
      "CONFIG_INVALID",
      `${flag} does not apply to ${COMMAND_LINE[command]}; it is an option of ${users.length > 1 ? `${users.slice(0, -1).join(", ")} and ${users.at(-1)}` : users[0]}.`,
      {
        subject: flag,
        hint: `Remove ${flag}, or run the command it belongs to (nzf-build help shows each command's options).`,
      },
    );
  }
}
