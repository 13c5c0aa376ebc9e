/**
 * The deploy's settings (declared in src/core/options.ts), checked before anything is built or
 * uploaded: a typo in a bucket name must stop the command at once, naming the flag or variable.
 */
import { NzfError } from "../core/errors.js";
import { given, text, type OptionValue, type OptionValues } from "../core/options.js";

export interface DeploySettings {
  bucket: string;
  /** Absent: nothing is invalidated (a bucket served without CloudFront). */
  distribution?: string;
  region: string;
  /** An S3-compatible endpoint (--s3-endpoint: MinIO, a local S3 server) instead of AWS's; path-style addressing is used with it. */
  s3Endpoint?: string;
  dryRun: boolean;
  /** The deploy's deadline (NZF_DEPLOY_TIMEOUT): past it every request is aborted and the deploy fails with DEPLOY_TIMED_OUT. */
  timeoutMs?: number;
}

/**
 * `nzf-build deploy --dry-run` with no bucket: the plan against the last deploy recorded on this
 * machine (./last-deploy.ts), with no network, bucket or credentials.
 */
export interface OfflinePlanSettings {
  dryRun: true;
  region: string;
  distribution?: string;
}

/** NZF_DEPLOY_TIMEOUT's default: a first upload of every image of the site can take minutes. */
export const DEFAULT_DEPLOY_DEADLINE_MS = 600_000;

// S3's rules for new buckets: 3-63 lower-case letters, digits, dots and hyphens.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
// CloudFront ids are upper-case letters and digits (E2QWRUHAPOMQZL).
const DISTRIBUTION = /^[A-Z0-9]{8,20}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

function refuse(value: OptionValue, what: string, example: string): never {
  throw new NzfError("CONFIG_INVALID", `${given(value)} is not ${what}, so nothing was deployed.`, {
    subject: value.source,
    hint: `Give ${what}, e.g. ${value.source.startsWith("-") ? `${value.source} ${example}` : `${value.source}=${example}`}.`,
  });
}

function endpoint(value: OptionValue): string | undefined {
  const raw = typeof value.value === "string" ? value.value.trim() : "";
  if (!raw) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    refuse(value, "an http(s) endpoint URL", "http://127.0.0.1:4568");
  return raw.replace(/\/+$/, "");
}

/**
 * The deploy settings when a deploy is asked for (`required`), else those given checked and
 * returned if a bucket is set (the webhook server deploys when it has one), else undefined.
 */
export function deploySettingsFrom(
  values: OptionValues,
  { required, dryRun }: { required: boolean; dryRun: boolean },
): DeploySettings | OfflinePlanSettings | undefined {
  const bucketValue = values.bucket;
  const bucket = text(values, "bucket")?.trim();
  if (bucket !== undefined && bucket !== "" && !BUCKET.test(bucket))
    refuse(bucketValue, "an S3 bucket name (3 to 63 lower-case letters, digits, dots or hyphens)", "nzf-site");
  const distribution = text(values, "distribution")?.trim();
  if (distribution && !DISTRIBUTION.test(distribution))
    refuse(values.distribution, "a CloudFront distribution id (upper-case letters and digits)", "E2QWRUHAPOMQZL");
  const region = text(values, "awsRegion")?.trim() || "ap-southeast-2";
  if (!REGION.test(region)) refuse(values.awsRegion, "an AWS region", "ap-southeast-2");
  const timeout = values.deployTimeout;
  const seconds =
    timeout === undefined || timeout.value === undefined ? DEFAULT_DEPLOY_DEADLINE_MS / 1000 : Number(timeout.value);
  if (!(seconds > 0) || !Number.isFinite(seconds)) refuse(timeout!, "a positive number of seconds", "600");
  const s3Endpoint = endpoint(values.s3Endpoint);
  if (!bucket) {
    if (!required) return undefined;
    // A plan needs no bucket: it is made against the last deploy recorded here (offline).
    if (dryRun) return { dryRun: true, region, ...(distribution ? { distribution } : {}) };
    throw new NzfError("CONFIG_INVALID", "No S3 bucket was given, so nothing was deployed.", {
      subject: "NZF_S3_BUCKET",
      hint: "Pass --bucket <name> or set NZF_S3_BUCKET to the bucket the site is served from (docs/deploy.md). To see the plan without a bucket or credentials, add --dry-run.",
    });
  }
  return {
    bucket,
    ...(distribution ? { distribution } : {}),
    region,
    ...(s3Endpoint ? { s3Endpoint } : {}),
    dryRun,
    timeoutMs: seconds * 1000,
  };
}
