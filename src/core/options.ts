/**
 * Every setting of nzf-build, declared once: its flag, its environment variables, its default,
 * which commands take it and its help text. The CLI builds its commander options from this table,
 * src/cli/settings.ts resolves it into one typed configuration, and test/cli/ checks each entry
 * by its effect through the real CLI and against docs/configuration.md, so a setting cannot be
 * added without its help, its documentation and its test.
 *
 * Precedence: a flag given on the command line, then the first environment variable that is set
 * (an empty value counts as unset, as CI systems often pass empty variables), then the default.
 * Each value remembers where it came from, so an error names the flag or variable actually used.
 */

import type { CommandName } from "./commands.js";

export type { CommandName } from "./commands.js";

/** Sections of docs/configuration.md. */
export type OptionGroup = "content" | "site" | "accounts" | "payments" | "watch" | "webhook" | "deploy" | "api";

export interface OptionSpec {
  /** Unique name of the setting; the key of its value in resolved option values. */
  key: string;
  /** Commander syntax: `--out <dir>`, or `--fetch` for a switch. Absent for variable-only settings. */
  flag?: string;
  /** Environment variables, the first one set wins. */
  env?: readonly string[];
  /** The default, as text (parsed like a given value). */
  default?: string;
  /** How help and docs show the default when it is not a plain value. */
  defaultText?: string;
  commands: readonly CommandName[];
  group: OptionGroup;
  help: string;
  /** How the payments service's Lambda functions get it, for the settings they read (LambdaSetting). */
  lambda?: LambdaSetting;
}

/**
 * How a setting reaches the payments service's Lambda functions in AWS (src/api/deploy/template.ts
 * derives its parameters and environment from these): `parameter`, a template parameter of that
 * name put into every function's environment (one the template has anyway, SiteOrigin, is shared);
 * `secret`, a key of the stack's secret in Secrets Manager (src/api/deploy/secrets.ts), never in the
 * template or the environment; `template`, made by the template itself (the database's address, the
 * API's own URL); `unset`, never set in AWS (ports, local stand-ins, a default that fits).
 * Nothing is set by hand in a function's environment: a deploy replaces it whole.
 */
export type LambdaSetting =
  | { parameter: string; allowed?: readonly string[] }
  | { secret: true }
  | "template"
  | "unset";

const BUILDS = ["build", "watch", "webhook"] as const;
/** What uploads the site: `nzf-build deploy`, `nzf-build --deploy` and the webhook server. */
const DEPLOYS = ["build", "deploy", "webhook"] as const;

export const OPTIONS = [
  // Content (Prismic)
  {
    key: "repository",
    flag: "--repository <name>",
    env: ["PRISMIC_REPOSITORY"],
    default: "nzf2020",
    commands: ["build", "watch", "fetch", "webhook"],
    group: "content",
    help: "Prismic repository: at least 4 characters, letters, digits or hyphens, starting and ending with a letter or digit",
    lambda: { parameter: "PrismicRepository" },
  },
  {
    key: "endpoint",
    flag: "--endpoint <url>",
    env: ["PRISMIC_ENDPOINT"],
    defaultText: "https://<repository>.cdn.prismic.io/api/v2",
    commands: ["build", "watch", "fetch", "webhook"],
    group: "content",
    help: "a custom Prismic document API endpoint (a local stub, a proxy), e.g. http://127.0.0.1:3000/api/v2",
  },
  {
    key: "accessToken",
    env: ["PRISMIC_ACCESS_TOKEN"],
    defaultText: "none",
    commands: ["build", "watch", "fetch", "webhook"],
    group: "content",
    help: "needed for a private repository; never written to the site",
    lambda: { secret: true },
  },
  {
    key: "fetch",
    flag: "--fetch",
    commands: ["build", "watch"],
    group: "content",
    help: "download the live content from Prismic into the content folder first (CI does this)",
  },
  {
    key: "sample",
    flag: "--sample",
    commands: ["build", "watch"],
    group: "content",
    help: "build the bundled sample content, even if fetched content exists",
  },
  {
    key: "imageHosts",
    flag: "--image-hosts <hosts>",
    env: ["NZF_IMAGE_HOSTS"],
    defaultText: "none: images come only from https://images.prismic.io/<repository>/",
    commands: BUILDS,
    group: "content",
    help: "more hosts images may be downloaded from, comma-separated host or host:port (e.g. media.nzf.org.au); a name that resolves to a private, loopback or link-local address is still refused, an address listed as such (127.0.0.1:4567, a local image server) is not",
  },
  {
    key: "contentDir",
    flag: "--content-dir <dir>",
    defaultText: "content-cache/ in the project folder",
    commands: ["build", "watch", "fetch", "webhook"],
    group: "content",
    help: "folder of content snapshots: fetched ones are written there, the sample is read from there",
  },
  // Site
  {
    key: "siteUrl",
    flag: "--site-url <url>",
    env: ["SITE_URL"],
    default: "https://nzf.org.au",
    commands: BUILDS,
    group: "site",
    help: "the site's origin (http or https, no path, query or fragment), for canonical links, Open Graph and the sitemap",
  },
  {
    key: "allowMissingSettings",
    flag: "--allow-missing-settings",
    env: ["NZF_ALLOW_MISSING_SETTINGS"],
    commands: ["build", "webhook"],
    group: "site",
    help: "build fetched content in CI without the payment or sign-in settings (the pay pages then show the other ways to give, the account page cannot sign in); without it such a build fails with SETTINGS_MISSING",
  },
  {
    key: "out",
    flag: "--out <dir>",
    env: ["NZF_OUT_DIR"],
    default: "dist",
    commands: [...BUILDS, "preview", "deploy"],
    group: "site",
    help: "output folder, relative to the project folder (nzf-build deploy uploads the site published there, nzf-build preview serves it)",
  },
  {
    key: "root",
    flag: "--root <dir>",
    defaultText: "this installation",
    commands: ["build", "watch", "preview", "fetch", "webhook", "deploy", "api"],
    group: "site",
    help: "project folder with templates/, src/client/ and assets/; the work folder .nzf-cache/ is made there",
  },
  {
    key: "verbose",
    flag: "--verbose",
    commands: ["build", "watch", "preview", "fetch", "webhook", "deploy", "api"],
    group: "site",
    help: "log every stage's timing and show stack traces",
  },
  // Donor accounts (Cognito); validated by src/auth/config.ts
  {
    key: "cognitoRegion",
    env: ["NZF_COGNITO_REGION"],
    default: "ap-southeast-2",
    commands: BUILDS,
    group: "accounts",
    help: "AWS region of the user pool",
  },
  {
    key: "cognitoUserPoolId",
    env: ["NZF_COGNITO_USER_POOL_ID"],
    defaultText: "none; without it and the client id, /account/ says sign-in is unavailable",
    commands: BUILDS,
    group: "accounts",
    help: "user pool id, e.g. ap-southeast-2_AbC123xyz",
    lambda: { parameter: "CognitoUserPoolId" },
  },
  {
    key: "cognitoClientId",
    env: ["NZF_COGNITO_CLIENT_ID"],
    defaultText: "none",
    commands: BUILDS,
    group: "accounts",
    help: "the user pool's app client id (public, no secret)",
    lambda: { parameter: "CognitoClientId" },
  },
  {
    key: "cognitoIdentityPoolId",
    env: ["NZF_COGNITO_IDENTITY_POOL_ID"],
    defaultText: "none",
    commands: BUILDS,
    group: "accounts",
    help: "identity pool id",
  },
  {
    key: "cognitoEndpoint",
    env: ["NZF_COGNITO_ENDPOINT"],
    defaultText: "none",
    commands: BUILDS,
    group: "accounts",
    help: "custom user pool endpoint (cognito-local)",
    lambda: "unset",
  },
  {
    key: "cognitoHostedDomain",
    env: ["NZF_COGNITO_HOSTED_DOMAIN"],
    defaultText: "none; /account/ offers only its own sign-in form",
    commands: BUILDS,
    group: "accounts",
    help: "the user pool's hosted sign-in domain (e.g. auth.nzf.org.au or nzf.auth.ap-southeast-2.amazoncognito.com): /account/ then offers sign-in through it (authorization code with PKCE); register https://<site>/account/ as the app client's callback and sign-out URL",
  },
  {
    key: "cookieDomain",
    env: ["NZF_COOKIE_DOMAIN"],
    defaultText: "host only",
    commands: BUILDS,
    group: "accounts",
    help: "domain of the sign-in cookies, e.g. nzf.org.au",
  },
  {
    key: "cookieSameSite",
    env: ["NZF_COOKIE_SAMESITE"],
    default: "lax",
    commands: BUILDS,
    group: "accounts",
    help: "SameSite of the sign-in cookies: strict, lax or none",
  },
  {
    key: "cookieSecure",
    env: ["NZF_COOKIE_SECURE"],
    default: "true",
    commands: BUILDS,
    group: "accounts",
    help: "Secure attribute of the sign-in cookies (0, false, no or off to drop it)",
  },
  {
    key: "authFlow",
    env: ["NZF_AUTH_FLOW"],
    default: "USER_SRP_AUTH",
    commands: BUILDS,
    group: "accounts",
    help: "USER_SRP_AUTH, or USER_PASSWORD_AUTH for the emulator",
  },
  {
    key: "cognitoMfa",
    env: ["NZF_COGNITO_MFA"],
    default: "off",
    commands: BUILDS,
    group: "accounts",
    help: "the user pool's MFA setting: off (the default), optional or on; two-step sign-in is offered on /account/ only when not off",
  },
  {
    key: "accountApiUrl",
    env: ["NZF_ACCOUNT_API_URL"],
    defaultText:
      "none; /account/ says giving history, receipts and regular gifts cannot be shown (--watch serves it from the local payments service at /graphql instead)",
    commands: BUILDS,
    group: "accounts",
    help: "the account GraphQL API's URL (https, or http on loopback); needs the user pool settings",
  },
  // Donations; validated by src/payments/config.ts
  {
    key: "paymentsApiUrl",
    env: ["PAYMENTS_API_URL"],
    defaultText:
      "none; the donation forms say card payments are unavailable (--watch starts the local payments API instead)",
    commands: BUILDS,
    group: "payments",
    help: "base URL of the payments API (https, or http on loopback)",
    lambda: "template",
  },
  {
    key: "stripePublishableKey",
    env: ["STRIPE_PUBLISHABLE_KEY"],
    defaultText: "none",
    commands: BUILDS,
    group: "payments",
    help: "a pk_… key only: the build refuses sk_/rk_ keys, and refuses to publish any secret found in dist/",
  },
  {
    key: "paypalClientId",
    env: ["NZF_PAYPAL_CLIENT_ID"],
    defaultText: "none; the donation forms offer cards only",
    commands: [...BUILDS, "api"],
    group: "payments",
    help: "PayPal REST app's client ID (public): the donation forms offer PayPal beside cards; needs PAYMENTS_API_URL. The service (`api`) calls PayPal with it and NZF_PAYPAL_CLIENT_SECRET",
    lambda: { parameter: "PayPalClientId" },
  },
  // Watch mode
  {
    key: "watch",
    flag: "--watch",
    commands: ["watch"],
    group: "watch",
    help: "serve the site on a local URL, rebuild what each save changed and update open pages in place, without a reload (nzf-build --watch --help)",
  },
  {
    key: "watchPort",
    flag: "--port <port>",
    default: "4321",
    commands: ["watch"],
    group: "watch",
    help: "port for --watch",
  },
  {
    key: "previewPort",
    flag: "--port <port>",
    default: "4321",
    commands: ["preview"],
    group: "watch",
    help: "port for nzf-build preview (as for --watch: a busy one moves on to the next free one, 0 picks any)",
  },
  // Webhook server
  {
    key: "webhookPort",
    flag: "--port <port>",
    env: ["NZF_WEBHOOK_PORT", "PORT"],
    default: "8080",
    commands: ["webhook"],
    group: "webhook",
    help: "port the webhook server listens on",
  },
  {
    key: "webhookHost",
    flag: "--host <host>",
    env: ["NZF_WEBHOOK_HOST"],
    default: "127.0.0.1",
    commands: ["webhook"],
    group: "webhook",
    help: "address the webhook server listens on",
  },
  {
    key: "webhookSecret",
    flag: "--secret <secret>",
    env: ["NZF_WEBHOOK_SECRET"],
    defaultText: "required; the server will not start without it",
    commands: ["webhook"],
    group: "webhook",
    help: "the webhook secret set in Prismic",
  },
  {
    key: "deployCommand",
    flag: "--deploy-command <command>",
    env: ["NZF_DEPLOY_COMMAND"],
    defaultText: "none",
    commands: ["webhook"],
    group: "webhook",
    help: "shell command run in the project folder (--root) after each published build, for a host other than S3 (with a bucket, NZF_S3_BUCKET deploys in-process instead)",
  },
  {
    key: "deployTimeout",
    flag: "--deploy-timeout <seconds>",
    env: ["NZF_DEPLOY_TIMEOUT"],
    default: "600",
    commands: DEPLOYS,
    group: "webhook",
    help: "how long a deploy may run, in seconds: the deploy command, or the upload to S3 and the CloudFront invalidation (abandoned, reported and retried after it)",
  },
  {
    key: "deployEnv",
    flag: "--deploy-env <names>",
    env: ["NZF_DEPLOY_ENV"],
    defaultText: "none",
    commands: ["webhook"],
    group: "webhook",
    help: "secret-looking variables the deploy command may see, comma-separated (e.g. AWS_ACCESS_KEY_ID,AWS_SECRET_ACCESS_KEY)",
  },
  // Deploy to S3 and CloudFront (src/deploy/, docs/deploy.md)
  {
    key: "deploy",
    flag: "--deploy",
    commands: ["build"],
    group: "deploy",
    help: "after the build, upload what changed to the S3 bucket and invalidate its pages in CloudFront (as nzf-build deploy)",
  },
  {
    key: "dryRun",
    flag: "--dry-run",
    commands: ["build", "deploy"],
    group: "deploy",
    help: "print the deploy plan (uploads, deletions, invalidation) without changing the bucket or the distribution; with no bucket given, offline against the last deploy from this machine (.nzf-cache/deploy/last-deploy.json), no credentials needed",
  },
  {
    key: "bucket",
    flag: "--bucket <name>",
    env: ["NZF_S3_BUCKET"],
    defaultText: "none; required to deploy",
    commands: DEPLOYS,
    group: "deploy",
    help: "the S3 bucket the site is served from (with the webhook server: deploy there after each published build)",
  },
  {
    key: "distribution",
    flag: "--distribution <id>",
    env: ["NZF_CLOUDFRONT_DISTRIBUTION_ID"],
    defaultText: "none; nothing is invalidated",
    commands: DEPLOYS,
    group: "deploy",
    help: "the CloudFront distribution in front of the bucket, e.g. E2QWRUHAPOMQZL: its changed pages are invalidated",
  },
  {
    key: "awsRegion",
    env: ["AWS_REGION"],
    default: "ap-southeast-2",
    commands: DEPLOYS,
    group: "deploy",
    help: "AWS region of the bucket; credentials come from the standard AWS chain (variables, profile, instance role)",
  },
  {
    key: "s3Endpoint",
    flag: "--s3-endpoint <url>",
    env: ["NZF_S3_ENDPOINT"],
    defaultText: "AWS S3 in the region",
    commands: DEPLOYS,
    group: "deploy",
    help: "an S3-compatible endpoint instead of AWS (a local S3 server, MinIO), e.g. http://127.0.0.1:4568",
  },
  // The payments API service (nzf-build api, src/api/, docs/payments-api.md)
  {
    key: "apiPort",
    flag: "--port <port>",
    env: ["NZF_API_PORT"],
    default: "8787",
    commands: ["api"],
    group: "api",
    help: "port the payments API listens on",
    lambda: "unset",
  },
  {
    key: "apiHost",
    flag: "--host <host>",
    env: ["NZF_API_HOST"],
    default: "127.0.0.1",
    commands: ["api"],
    group: "api",
    help: "address the payments API listens on",
    lambda: "unset",
  },
  {
    key: "dataDir",
    flag: "--data-dir <dir>",
    env: ["NZF_DATA_DIR"],
    default: ".nzf-data",
    commands: ["api"],
    group: "api",
    help: "folder of the embedded PostgreSQL (PGlite) database, relative to the project folder; used when DATABASE_URL is not set",
    lambda: "unset",
  },
  {
    key: "databaseUrl",
    env: ["DATABASE_URL"],
    defaultText: "none; PGlite in --data-dir",
    commands: ["api"],
    group: "api",
    help: "a postgres:// URL: keep the donations in that PostgreSQL server",
    lambda: "template",
  },
  {
    key: "stripeSecretKey",
    env: ["STRIPE_SECRET_KEY"],
    defaultText: "none; card gifts answer 503",
    commands: ["api"],
    group: "api",
    help: "the Stripe secret key (sk_test_… or sk_live_…); never logged",
    lambda: { secret: true },
  },
  {
    key: "stripeWebhookSecret",
    env: ["STRIPE_WEBHOOK_SECRET"],
    defaultText: "none; required with STRIPE_SECRET_KEY",
    commands: ["api"],
    group: "api",
    help: "the signing secret (whsec_…) of the Stripe webhook endpoint /stripe/webhook",
    lambda: { secret: true },
  },
  {
    key: "stripeApiBase",
    env: ["STRIPE_API_BASE"],
    defaultText: "Stripe's API",
    commands: ["api"],
    group: "api",
    help: "another Stripe API origin, e.g. http://127.0.0.1:12111 (a local stand-in)",
    lambda: "unset",
  },
  {
    key: "apiAllowedOrigins",
    env: ["NZF_API_ALLOWED_ORIGINS"],
    defaultText: "loopback origins",
    commands: ["api"],
    group: "api",
    help: "the site's origins that may call the API from a browser (CORS), comma-separated, e.g. https://nzf.org.au",
    lambda: { parameter: "SiteOrigin" },
  },
  // The service's receipts and notices (src/receipts/settings.ts checks them)
  {
    key: "foundationName",
    env: ["NZF_FOUNDATION_NAME"],
    defaultText: "none; no receipt is issued and no notice sent",
    commands: ["api"],
    group: "api",
    help: "the foundation's name on receipts and notices, e.g. National Zakat Foundation Australia; with NZF_FOUNDATION_ABN",
    lambda: { parameter: "FoundationName" },
  },
  {
    key: "foundationAbn",
    env: ["NZF_FOUNDATION_ABN"],
    defaultText: "none; no receipt is issued and no notice sent",
    commands: ["api"],
    group: "api",
    help: "the foundation's ABN on receipts and notices, 11 digits whose check digits add up, e.g. 51 824 753 556",
    lambda: { parameter: "FoundationAbn" },
  },
  {
    key: "receiptFrom",
    env: ["NZF_RECEIPT_FROM"],
    defaultText: "none; required to e-mail",
    commands: ["api"],
    group: "api",
    help: 'the sender of receipts and notices, e.g. "National Zakat Foundation <receipts@nzf.org.au>" (an SES-verified identity in production)',
    lambda: { parameter: "ReceiptFrom" },
  },
  {
    key: "receiptContactEmail",
    env: ["NZF_RECEIPT_CONTACT_EMAIL"],
    defaultText: "none",
    commands: ["api"],
    group: "api",
    help: "the address printed on receipts and the notices' Reply-To, e.g. info@nzf.org.au",
    lambda: { parameter: "ReceiptContactEmail" },
  },
  {
    key: "donorCareEmail",
    env: ["NZF_DONOR_CARE_EMAIL"],
    defaultText: "NZF_RECEIPT_CONTACT_EMAIL",
    commands: ["api"],
    group: "api",
    help: "where the contact page's enquiries are sent, e.g. donorcare@nzf.org.au",
    lambda: { parameter: "DonorCareEmail" },
  },
  {
    key: "mailTransport",
    env: ["NZF_MAIL_TRANSPORT"],
    default: "none",
    commands: ["api"],
    group: "api",
    help: "how receipts and notices are e-mailed: none (kept and printable, not sent), smtp (NZF_SMTP_URL) or ses (Amazon SES); smtp and ses need NZF_FOUNDATION_NAME, NZF_FOUNDATION_ABN and NZF_RECEIPT_FROM",
    lambda: { parameter: "MailTransport", allowed: ["none", "smtp", "ses"] },
  },
  {
    key: "smtpUrl",
    env: ["NZF_SMTP_URL"],
    defaultText: "none; required with NZF_MAIL_TRANSPORT=smtp",
    commands: ["api"],
    group: "api",
    help: "the SMTP server, smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465; never logged",
    lambda: { secret: true },
  },
  {
    key: "sesRegion",
    env: ["NZF_SES_REGION"],
    defaultText: "AWS_REGION, then ap-southeast-2",
    commands: ["api"],
    group: "api",
    help: "the Amazon SES region with NZF_MAIL_TRANSPORT=ses, e.g. ap-southeast-2",
    lambda: "unset",
  },
  {
    key: "sesEndpoint",
    env: ["NZF_SES_ENDPOINT"],
    defaultText: "the region's SES endpoint",
    commands: ["api"],
    group: "api",
    help: "another SES API origin with NZF_MAIL_TRANSPORT=ses, e.g. http://127.0.0.1:4566 (a local stand-in)",
    lambda: "unset",
  },
  // The service's PayPal (src/api/paypal/settings.ts checks them)
  {
    key: "paypalClientSecret",
    env: ["NZF_PAYPAL_CLIENT_SECRET"],
    defaultText: "none; PayPal calls answer 503 (watch mode: a local provider)",
    commands: ["api"],
    group: "api",
    help: "the PayPal REST app's secret, with NZF_PAYPAL_CLIENT_ID and NZF_PAYPAL_WEBHOOK_ID; never logged",
    lambda: { secret: true },
  },
  {
    key: "paypalEnvironment",
    env: ["NZF_PAYPAL_ENVIRONMENT"],
    default: "sandbox",
    commands: ["api"],
    group: "api",
    help: "sandbox or live: which PayPal the credentials are for",
    lambda: { parameter: "PayPalEnvironment", allowed: ["sandbox", "live"] },
  },
  {
    key: "paypalWebhookId",
    env: ["NZF_PAYPAL_WEBHOOK_ID"],
    defaultText: "none; required with NZF_PAYPAL_CLIENT_SECRET",
    commands: ["api"],
    group: "api",
    help: "the id of the webhook at <api>/paypal/webhook in PayPal's dashboard: each event is verified with it",
    lambda: { parameter: "PayPalWebhookId" },
  },
  {
    key: "paypalApiBase",
    env: ["NZF_PAYPAL_API_BASE"],
    defaultText: "PayPal's API for the environment",
    commands: ["api"],
    group: "api",
    help: "a local PayPal stand-in, http://127.0.0.1:<port> (never with live)",
    lambda: "unset",
  },
  {
    key: "apiSiteUrl",
    env: ["SITE_URL"],
    defaultText:
      "none; PayPal then keeps a donor who agreed to a new amount on its own page, and notices carry no account link",
    commands: ["api"],
    group: "api",
    help: "the site's public origin (http or https, no path), e.g. https://nzf.org.au: PayPal returns donors to its /account/ page after they agree to a new amount, and e-mailed notices link there",
    lambda: { parameter: "SiteOrigin" },
  },
] as const satisfies readonly OptionSpec[];

export type OptionKey = (typeof OPTIONS)[number]["key"];

/** A setting's value and where it came from: `--out`, `NZF_OUT_DIR` or `default`. */
export interface OptionValue {
  value: string | boolean | undefined;
  source: string;
}

export type OptionValues = Record<OptionKey, OptionValue>;

/** The long flag without its argument: `--out <dir>` → `--out`. */
export function flagName(spec: OptionSpec): string | undefined {
  return spec.flag?.split(" ")[0];
}

/** Commander's attribute name for a flag: `--content-dir` → `contentDir`. */
export function flagAttribute(spec: OptionSpec): string | undefined {
  return flagName(spec)
    ?.slice(2)
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Whether the flag takes a value (`--out <dir>`) or is a switch (`--fetch`). */
export function takesValue(spec: OptionSpec): boolean {
  return spec.flag?.includes("<") ?? false;
}

export function optionsFor(command: CommandName): OptionSpec[] {
  return OPTIONS.filter((o) => (o.commands as readonly CommandName[]).includes(command));
}

/**
 * Reads every setting of `command`: the flag's value from `flags` (keyed by commander attribute
 * name), else the first set variable of `env`, else the default. Settings of other commands read
 * as unset.
 */
export function readOptions(
  command: CommandName,
  flags: Record<string, unknown>,
  env: Record<string, string | undefined>,
): OptionValues {
  const values = {} as OptionValues;
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const key = spec.key as OptionKey;
    if (!(spec.commands as readonly CommandName[]).includes(command)) {
      values[key] = { value: undefined, source: "unset" };
      continue;
    }
    const attribute = flagAttribute(spec);
    const given = attribute === undefined ? undefined : flags[attribute];
    if (given !== undefined && given !== null) {
      values[key] = { value: typeof given === "boolean" ? given : String(given), source: flagName(spec)! };
      continue;
    }
    const variable = spec.env?.find((name) => (env[name]?.trim() ?? "") !== "");
    if (variable) values[key] = { value: env[variable]!.trim(), source: variable };
    else values[key] = { value: spec.default, source: "default" };
  }
  return values;
}

/** A setting's declared default, for code that reads it outside readOptions (the Lambda function, a folder compared with the default). */
export function defaultOf(key: OptionKey): string {
  const value = (OPTIONS as readonly OptionSpec[]).find((o) => o.key === key)?.default;
  if (value === undefined) throw new Error(`The setting ${key} declares no default`);
  return value;
}

/** A text value (undefined when unset), for settings that take one. */
export function text(values: OptionValues, key: OptionKey): string | undefined {
  const v = values[key].value;
  return typeof v === "string" ? v : undefined;
}

/** How an error names where a value came from: the flag or variable, or "the default". */
export function describeSource(value: OptionValue): string {
  return value.source === "default" ? "the default" : value.source;
}

/** A value as the user wrote it, for messages: `--port "abc"` or `NZF_WEBHOOK_PORT="abc"`. */
export function given(value: OptionValue): string {
  const shown = JSON.stringify(String(value.value ?? ""));
  if (value.source === "default") return `the default ${shown}`;
  return value.source.startsWith("-") ? `${value.source} ${shown}` : `${value.source}=${shown}`;
}
