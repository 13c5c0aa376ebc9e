/**
 * `nzf-build deploy`: uploads the published site (the version `dist` links to, resolved once) to
 * S3 and invalidates its changed pages in CloudFront. See ./plan.ts for what is sent and in which
 * order, and docs/deploy.md.
 */
import { realpathSync } from "node:fs";
import { createHash } from "node:crypto";
import pLimit from "p-limit";
import type { S3Client } from "@aws-sdk/client-s3";
import { NzfError } from "../core/errors.js";
import { formatMs, type Logger } from "../core/logger.js";
import { setMaxListeners } from "node:events";
import { listPublishedFiles } from "../publish/publish.js";
import {
  deleteKeys,
  markRetired,
  readBucket,
  s3ClientFor,
  UPLOAD_CONCURRENCY,
  uploadFile,
  type EarlyListing,
  type ListedObject,
} from "./bucket.js";
import { invalidate } from "./invalidate.js";
import { siteHashes, type SiteHashes } from "./site-hashes.js";
import {
  HASH_SCHEME,
  isUploaded,
  planDeploy,
  type DeployPlan,
  type Phase,
  type RemoteObject,
  type Upload,
} from "./plan.js";
import { DEFAULT_DEPLOY_DEADLINE_MS, type DeploySettings, type OfflinePlanSettings } from "./settings.js";
import { bucketAfter, readDeployRecord, recordedBucket, writeDeployRecord, type DeployRecord } from "./last-deploy.js";

export interface DeployReport {
  /** The version folder that was deployed. */
  siteDir: string;
  plan: DeployPlan;
  uploaded: number;
  uploadedBytes: number;
  deleted: number;
  invalidationId?: string;
  dryRun: boolean;
  durationMs: number;
  /** Files of the site read and hashed; the others had the hash the last deploy recorded (./site-hashes.ts). */
  filesRead: number;
  /** How long each step took (ms): reading the site, reading the bucket, uploading, invalidating... */
  stages: Record<string, number>;
}

export interface DeployDeps {
  logger: Logger;
  /** Aborts the deploy from outside (the webhook server's own deadline); the settings' deadline applies too. */
  signal?: AbortSignal;
  /**
   * The record of the last deploy from this machine (./last-deploy.ts): written after each deploy,
   * read by a dry run that has no bucket, or whose bucket cannot be read. Absent: none is kept.
   */
  recordFile?: string;
  /** The bucket's listing read while the build ran (src/deploy/webhook-deploy.ts); absent, the deploy lists the bucket. */
  listing?: EarlyListing;
}

// The SDK warns on every run that versions published from 2027 need Node 22; the project pins the
// versions it installs (package.json), so the notice says nothing a user can act on.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

function publishedSite(outDir: string): string {
  try {
    return realpathSync(outDir);
  } catch (error) {
    throw new NzfError("DEPLOY_SITE_MISSING", `There is no site at ${outDir} to deploy, so nothing was uploaded.`, {
      subject: outDir,
      cause: error,
    });
  }
}

/** The site's files with their hashes, reading only those changed since `last` was deployed (./site-hashes.ts). */
async function localFiles(siteDir: string, last: DeployRecord | null): Promise<SiteHashes> {
  const keys = [...listPublishedFiles(siteDir)].filter(isUploaded).sort();
  if (keys.length === 0)
    throw new NzfError("DEPLOY_SITE_MISSING", `The site at ${siteDir} has no files, so nothing was uploaded.`, {
      subject: siteDir,
    });
  return siteHashes(siteDir, keys, HASH_SCHEME, last);
}

const PHASES: Phase[] = ["assets", "pages", "worker"];

/** Uploads one phase; after a failure nothing more is started, and the error names what to do. */
async function uploadPhase(
  client: S3Client,
  settings: DeploySettings,
  siteDir: string,
  uploads: Upload[],
  done: { count: number; bytes: number; versions: Map<string, string> },
  total: number,
  signal: AbortSignal,
): Promise<void> {
  const limit = pLimit(UPLOAD_CONCURRENCY);
  let failure: { key: string; error: unknown } | null = null;
  await Promise.all(
    uploads.map((upload) =>
      limit(async () => {
        if (failure || signal.aborted) return;
        try {
          const sent = await uploadFile(client, settings.bucket, siteDir, upload, signal);
          if (sent.version) done.versions.set(upload.key, sent.version);
          done.count++;
          done.bytes += sent.bytes;
        } catch (error) {
          failure ??= { key: upload.key, error };
        }
      }),
    ),
  );
  signal.throwIfAborted();
  if (failure) {
    const { key, error } = failure as { key: string; error: unknown };
    const reason = error instanceof Error ? error.message : String(error);
    throw new NzfError(
      "DEPLOY_UPLOAD_FAILED",
      `Uploading ${key} to s3://${settings.bucket} failed (${reason}); ${done.count} of ${total} changed files were uploaded, the rest were not, and nothing was deleted or invalidated.`,
      { subject: key, cause: error },
    );
  }
}

/**
 * Deploys within the deadline (settings.timeoutMs): past it every request in flight is aborted,
 * nothing more is started, and the deploy fails with DEPLOY_TIMED_OUT, saying how far it got. What
 * was uploaded stays (each object is whole); the next deploy sends what is still missing.
 */
export async function deploySite(
  outDir: string,
  settings: DeploySettings | OfflinePlanSettings,
  deps: DeployDeps,
): Promise<DeployReport> {
  if (!("bucket" in settings)) return planOffline(outDir, settings, deps);
  const deadlineMs = settings.timeoutMs ?? DEFAULT_DEPLOY_DEADLINE_MS;
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = deps.signal ? AbortSignal.any([deadline, deps.signal]) : deadline;
  // Every request in flight listens on it (up to HEAD_CONCURRENCY of them at once), which is meant:
  // without this Node warns of a listener leak past 10.
  setMaxListeners(0, signal);
  const progress = { step: "reading the bucket" };
  try {
    return await deployWithin(outDir, settings, deps, signal, progress);
  } catch (error) {
    if (!signal.aborted) throw error;
    throw new NzfError(
      "DEPLOY_TIMED_OUT",
      `The deploy to s3://${settings.bucket} did not finish within ${formatMs(deadlineMs)} and was abandoned while ${progress.step}`,
      { subject: settings.s3Endpoint ?? settings.bucket, cause: error },
    );
  }
}

/** The last deploy's record when it is of this bucket: its objects need not be read again when the listing shows them unchanged. */
async function lastDeployTo(settings: DeploySettings, recordFile: string | undefined): Promise<DeployRecord | null> {
  const record = recordFile ? await readDeployRecord(recordFile) : null;
  if (!record || "unreadable" in record) return null;
  return record.bucket === settings.bucket && record.region === settings.region ? record : null;
}

/**
 * The bucket as readBucket reads it, from the early listing when there is one: one that failed or
 * is not there by the deploy's deadline is not waited for, and one that no longer matches the
 * bucket (an object deleted since, by another deploy) is read again.
 */
async function readRemote(
  client: S3Client,
  bucket: string,
  signal: AbortSignal,
  known: Readonly<Record<string, RemoteObject>>,
  hashOnly: (key: string) => boolean,
  listing: EarlyListing | undefined,
): Promise<Map<string, RemoteObject>> {
  const listed = listing ? await earlyObjects(listing, signal) : undefined;
  if (listed)
    try {
      return await readBucket(client, bucket, signal, known, hashOnly, listed);
    } catch (error) {
      if (signal.aborted) throw error;
    }
  return readBucket(client, bucket, signal, known, hashOnly);
}

/** The early listing's objects, or undefined when it failed or the signal aborted first. */
async function earlyObjects(listing: EarlyListing, signal: AbortSignal): Promise<readonly ListedObject[] | undefined> {
  let stop = () => {};
  const aborted = new Promise<undefined>((resolve) => {
    stop = () => resolve(undefined);
    signal.addEventListener("abort", stop, { once: true });
  });
  try {
    return await Promise.race([listing.objects.catch(() => undefined), aborted]);
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

async function deployWithin(
  outDir: string,
  settings: DeploySettings,
  deps: DeployDeps,
  signal: AbortSignal,
  progress: { step: string },
): Promise<DeployReport> {
  const { logger } = deps;
  const started = performance.now();
  const stages: Record<string, number> = {};
  const timed = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await run();
    } finally {
      stages[name] = (stages[name] ?? 0) + performance.now() - t;
    }
  };
  const siteDir = publishedSite(outDir);
  const client = s3ClientFor(settings);
  try {
    const last = await lastDeployTo(settings, deps.recordFile);
    const { files: local, read: filesRead } = await timed("site", () => localFiles(siteDir, last));
    const known = last?.objects ?? {};
    const published = new Set(local.map((file) => file.key));
    const remote = await timed("bucket", () =>
      readRemote(client, settings.bucket, signal, known, (key) => published.has(key), deps.listing).catch(
        async (error: unknown) => {
          if (signal.aborted) throw error;
          const reason = error instanceof Error ? error.message : String(error);
          // A plan can do with the last deploy's record when the bucket cannot be read (offline, no credentials).
          const record = settings.dryRun && deps.recordFile ? await readDeployRecord(deps.recordFile) : null;
          if (record && !("unreadable" in record) && record.bucket === settings.bucket) {
            logger.warn(
              "deploy",
              `s3://${settings.bucket} could not be read (${reason}); planning against the last deploy from this machine instead`,
            );
            printBasis(logger, record, deps.recordFile!);
            return recordedBucket(record);
          }
          throw new NzfError(
            "DEPLOY_BUCKET_UNREADABLE",
            `The bucket s3://${settings.bucket} could not be read (${reason}), so nothing was uploaded.`,
            {
              subject: settings.bucket,
              cause: error,
              ...(settings.dryRun
                ? {
                    hint: "Check the bucket name (NZF_S3_BUCKET), its region (AWS_REGION) and the credentials (the standard AWS chain) with the IAM policy of docs/deploy.md. Without a bucket (no --bucket, NZF_S3_BUCKET unset) --dry-run plans offline against the last deploy from this machine.",
                  }
                : {}),
            },
          );
        },
      ),
    );
    const now = new Date();
    const plan = planDeploy(local, remote, now.getTime());
    const report: DeployReport = {
      siteDir,
      plan,
      uploaded: 0,
      uploadedBytes: 0,
      deleted: 0,
      dryRun: settings.dryRun,
      durationMs: 0,
      filesRead,
      stages,
    };
    if (settings.dryRun) {
      printPlan(logger, settings, plan);
      report.durationMs = performance.now() - started;
      return report;
    }

    const done = { count: 0, bytes: 0, versions: new Map<string, string>() };
    for (const phase of PHASES) {
      progress.step = `uploading (${phase}; ${done.count} of ${plan.uploads.length} changed files were uploaded)`;
      await timed("upload", () =>
        uploadPhase(
          client,
          settings,
          siteDir,
          plan.uploads.filter((u) => u.phase === phase),
          done,
          plan.uploads.length,
          signal,
        ),
      );
    }
    report.uploaded = done.count;
    report.uploadedBytes = done.bytes;

    progress.step = `marking and deleting the files the site no longer uses (all ${done.count} changed files were uploaded)`;
    const retiring = performance.now();
    for (const key of plan.retire) {
      signal.throwIfAborted();
      // A mark that fails only delays the file's deletion: the next deploy marks it.
      await markRetired(client, settings.bucket, key, remote.get(key)?.hash ?? null, now, signal).catch(
        (error: unknown) =>
          logger.warn(
            "deploy",
            `could not mark ${key} as no longer used (${error instanceof Error ? error.message : String(error)}); the next deploy will`,
          ),
      );
    }
    try {
      await deleteKeys(client, settings.bucket, plan.deletions, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new NzfError(
        "DEPLOY_UPLOAD_FAILED",
        `The new site is uploaded, but deleting the ${plan.deletions.length} files it no longer has from s3://${settings.bucket} failed (${error instanceof Error ? error.message : String(error)}); nothing was invalidated.`,
        {
          subject: settings.bucket,
          cause: error,
          hint: "Run nzf-build deploy again: it deletes what is left and invalidates. Donors are served the new pages already, except where CloudFront still has an old copy.",
        },
      );
    }
    report.deleted = plan.deletions.length;
    stages.retire = performance.now() - retiring;

    const { distribution } = settings;
    if (distribution && plan.invalidations.length) {
      const reference = `nzf-${now.getTime()}-${createHash("sha256").update(plan.invalidations.join("\n")).digest("hex").slice(0, 12)}`;
      progress.step = `invalidating ${plan.invalidations.length} paths in CloudFront (the bucket has the new site)`;
      try {
        const id = await timed("invalidate", () =>
          invalidate({ ...settings, distribution }, plan.invalidations, reference, signal),
        );
        if (id) report.invalidationId = id;
      } catch (error) {
        if (signal.aborted) throw error;
        // All of them (at most MAX_INVALIDATION_PATHS): the hint says to invalidate them by hand.
        const shown = plan.invalidations.join(" ");
        throw new NzfError(
          "DEPLOY_INVALIDATION_FAILED",
          `The new site is in s3://${settings.bucket}, but invalidating ${plan.invalidations.length} paths of CloudFront distribution ${settings.distribution} failed (${error instanceof Error ? error.message : String(error)}): ${shown}`,
          {
            subject: settings.distribution,
            cause: error,
          },
        );
      }
    }
    report.durationMs = performance.now() - started;
    if (deps.recordFile) {
      const record: DeployRecord = {
        version: 1,
        bucket: settings.bucket,
        region: settings.region,
        ...(settings.distribution ? { distribution: settings.distribution } : {}),
        deployedAt: new Date().toISOString(),
        site: { dir: siteDir, scheme: HASH_SCHEME },
        objects: bucketAfter(plan, remote, now.getTime(), done.versions),
      };
      // The bucket has the new site either way: a record that cannot be written only costs the next offline plan.
      await timed("record", () => writeDeployRecord(deps.recordFile!, record)).catch((error: unknown) =>
        logger.warn(
          "deploy",
          `could not record this deploy in ${deps.recordFile} (${error instanceof Error ? error.message : String(error)}); a dry run without a bucket will not know it`,
        ),
      );
    }
    logger.info("deploy", summary(settings, report));
    return report;
  } finally {
    client.destroy();
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(bytes < 1_048_576 ? 2 : 1)} MB`;
}

export function summary(settings: DeploySettings, report: DeployReport): string {
  const { plan } = report;
  const invalidated = !settings.distribution
    ? "no distribution to invalidate"
    : plan.invalidations.length
      ? `invalidated ${plan.invalidations.length === 1 && plan.invalidations[0] === "/*" ? "everything (/*)" : `${plan.invalidations.length} paths`}${report.invalidationId ? ` (${report.invalidationId})` : ""}`
      : "invalidated nothing";
  const retired = plan.retire.length ? `, ${plan.retire.length} no longer used kept for 48 h` : "";
  return `s3://${settings.bucket}: uploaded ${report.uploaded} files (${megabytes(report.uploadedBytes)}), kept ${plan.kept}, deleted ${report.deleted}${retired}; ${invalidated}; in ${formatMs(report.durationMs)}`;
}

/**
 * A dry run with no bucket: the published site against the last deploy recorded on this machine, or
 * against an empty bucket when there is none, saying which. No network, no credentials.
 */
async function planOffline(outDir: string, settings: OfflinePlanSettings, deps: DeployDeps): Promise<DeployReport> {
  const { logger } = deps;
  const started = performance.now();
  const siteDir = publishedSite(outDir);
  const record = deps.recordFile ? await readDeployRecord(deps.recordFile) : null;
  const { files: local, read: filesRead } = await localFiles(
    siteDir,
    record && !("unreadable" in record) ? record : null,
  );
  let remote = new Map<string, RemoteObject>();
  let target = "an empty bucket";
  if (record && !("unreadable" in record)) {
    remote = recordedBucket(record);
    target = `s3://${record.bucket} as the last deploy from this machine left it`;
    printBasis(logger, record, deps.recordFile!);
  } else {
    const where = deps.recordFile ?? "the work folder";
    logger.warn(
      "deploy",
      record
        ? `the record of the last deploy (${where}) cannot be read (${record.unreadable}), so this plan is for an empty bucket`
        : `no deploy from this machine is recorded (${where}), so this plan is for an empty bucket: every file would be uploaded`,
    );
    logger.info(
      "deploy",
      "to plan against the bucket itself, give it (--bucket or NZF_S3_BUCKET) with AWS credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or a role) that may list and read it",
    );
  }
  const plan = planDeploy(local, remote, Date.now());
  const distribution = settings.distribution ?? (record && !("unreadable" in record) ? record.distribution : undefined);
  printPlan(logger, { region: settings.region, ...(distribution ? { distribution } : {}), target }, plan);
  return {
    siteDir,
    plan,
    uploaded: 0,
    uploadedBytes: 0,
    deleted: 0,
    dryRun: true,
    durationMs: performance.now() - started,
    filesRead,
    stages: {},
  };
}

function printBasis(logger: Logger, record: DeployRecord, file: string): void {
  logger.info(
    "deploy",
    `offline: comparing with the last deploy from this machine, to s3://${record.bucket} (${record.region}) at ${record.deployedAt} (${file}); a deploy made elsewhere since is not known`,
  );
}

function printPlan(
  logger: Logger,
  settings: Pick<DeploySettings, "region" | "distribution"> & { bucket?: string; target?: string },
  plan: DeployPlan,
): void {
  const target = settings.target ?? `s3://${settings.bucket} (${settings.region})`;
  logger.info("deploy", `dry run: the plan for ${target}; nothing is changed`);
  for (const upload of plan.uploads)
    logger.info(
      "deploy",
      `upload ${upload.phase.padEnd(6)} ${upload.key}  (${upload.contentType}; ${upload.cacheControl})`,
    );
  for (const key of plan.retire) logger.info("deploy", `mark   unused ${key}  (deleted by a deploy 48 h from now)`);
  for (const key of plan.deletions) logger.info("deploy", `delete        ${key}`);
  const paths = plan.invalidations.join(" ");
  logger.info(
    "deploy",
    settings.distribution
      ? `invalidate ${settings.distribution}: ${paths || "nothing"}`
      : "no distribution: nothing to invalidate",
  );
  logger.info(
    "deploy",
    `would upload ${plan.uploads.length} files, keep ${plan.kept}, delete ${plan.deletions.length}`,
  );
}
