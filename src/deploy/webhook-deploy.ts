/**
 * The deploy `nzf-build webhook` runs after each published build (src/server/webhook-server.ts).
 * Listing the bucket (a request per 1,000 objects, one after the other) was most of the deploy of
 * one changed page; nothing in it depends on the build, so it is read while the build runs:
 * `prepare` (called by the build queue as a build starts) starts the listing, and the deploy after
 * that build plans with it. The deploy still reads each object the listing shows changed since
 * the last deploy from this machine (src/deploy/bucket.ts readBucket).
 *
 * The bucket is the truth only as of its listing, whenever that is read; a listing read early is
 * used only while younger than EARLY_LISTING_MAX_AGE_MS, and started after the last deploy ended
 * (the queue runs one build or deploy at a time), so it holds everything this server sent. A
 * listing that failed, is still running past the deploy's deadline, or is too old is not used: the
 * deploy lists the bucket itself.
 */
import { formatMs, type Logger } from "../core/logger.js";
import { listBucket, s3ClientFor, type EarlyListing } from "./bucket.js";
import { deploySite, summary, type DeployReport } from "./deploy.js";
import { DEFAULT_DEPLOY_DEADLINE_MS, type DeploySettings } from "./settings.js";

/** Older than this when the deploy starts (a long build), the listing is read again. */
export const EARLY_LISTING_MAX_AGE_MS = 30_000;

export interface WebhookDeploy {
  label: string;
  /** Starts reading the bucket's listing for the next deploy (a build is starting). */
  prepare(): void;
  /** Deploys the published site; answers the summary line. */
  run(signal: AbortSignal): Promise<string>;
}

export function createWebhookDeploy(
  outDir: string,
  settings: DeploySettings,
  deps: {
    logger: Logger;
    recordFile?: string;
    /** Sees each deploy's report (the bench's breakdown). */
    onReport?: (report: DeployReport) => void;
  },
): WebhookDeploy {
  let early: (EarlyListing & { abort: () => void }) | null = null;
  return {
    label: `nzf-build deploy to s3://${settings.bucket}`,
    prepare() {
      early?.abort();
      const controller = new AbortController();
      const signal = AbortSignal.any([
        controller.signal,
        AbortSignal.timeout(settings.timeoutMs ?? DEFAULT_DEPLOY_DEADLINE_MS),
      ]);
      const client = s3ClientFor(settings);
      const objects = listBucket(client, settings.bucket, signal).finally(() => client.destroy());
      // Not awaited until the deploy; a failure only means the deploy lists the bucket itself.
      objects.catch(() => undefined);
      early = { startedAt: Date.now(), objects, abort: () => controller.abort() };
    },
    async run(signal) {
      const taken = early;
      early = null;
      const age = taken ? Date.now() - taken.startedAt : 0;
      if (taken && age > EARLY_LISTING_MAX_AGE_MS) {
        taken.abort();
        deps.logger.debug("deploy", `the bucket's listing read ${formatMs(age)} ago is too old; reading it again`);
      }
      const report = await deploySite(outDir, settings, {
        logger: deps.logger,
        signal,
        ...(deps.recordFile ? { recordFile: deps.recordFile } : {}),
        ...(taken && age <= EARLY_LISTING_MAX_AGE_MS ? { listing: taken } : {}),
      });
      deps.onReport?.(report);
      return summary(settings, report);
    },
  };
}
