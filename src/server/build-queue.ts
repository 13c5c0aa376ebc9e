/**
 * The build queue behind the webhook server: at most one build at a time, and every change that
 * arrives while a build runs is merged into exactly one next build (coalescing). A trigger is only
 * ever handed to a build that starts after it was accepted, so a change published in Prismic while
 * a build is half-way through its fetch is never lost. A failed build keeps its triggers and hands
 * them to the next build (the previous site stays live meanwhile), but is not retried on its own:
 * a broken document would otherwise rebuild in a loop until someone fixes it.
 *
 * The build itself is injected (`RunBuild`), so this file knows nothing about Prismic or React.
 */

import { formatMs, type Logger } from "../core/logger.js";
import type { DeployResult } from "./deploy.js";

export interface BuildTrigger {
  reason: "webhook" | "manual" | "startup";
  /** The documents Prismic says changed; absent means "unknown, look at everything". */
  documentIds?: string[];
  receivedAt: number;
}
export interface BuildRunResult {
  ok: boolean;
  pagesRebuilt: number;
  pagesTotal?: number;
  durationMs: number;
  error?: string;
}
export type RunBuild = (triggers: BuildTrigger[]) => Promise<BuildRunResult>;
/** Publishes the freshly built dist/ somewhere else (an `aws s3 sync`, say). */
export type RunDeploy = () => Promise<DeployResult>;

export interface BuildRecord {
  id: number;
  startedAt: number;
  finishedAt: number;
  durationMs: number;
  /** From the oldest trigger's arrival to the build's start. */
  waitedMs: number;
  triggers: number;
  reasons: BuildTrigger["reason"][];
  /** The documents named by the triggers (at most 100 kept; `documentCount` has the full number). */
  documentIds: string[];
  documentCount: number;
  pagesRebuilt: number;
  pagesTotal?: number;
  ok: boolean;
  error?: string;
  /** Present when a deploy ran after this build. */
  deploy?: DeployResult;
}

export interface QueueStatus {
  state: "idle" | "waiting" | "building" | "deploying";
  current: {
    id: number;
    state: "building" | "deploying";
    startedAt: number;
    /** When the deploy after this build started (while `state` is deploying). */
    deployStartedAt?: number;
    triggers: number;
    reasons: BuildTrigger["reason"][];
  } | null;
  pending: { triggers: number; documentIds: number; oldestReceivedAt: number | null };
  /** Triggers of a failed build, handed to the next one. */
  carried: { triggers: number };
  deploy: { configured: boolean; pending: boolean; last: DeployResult | null };
  /** Newest first. */
  builds: BuildRecord[];
}

export interface BuildQueue {
  enqueue(trigger: BuildTrigger): void;
  status(): QueueStatus;
  /** Resolves once nothing is running, waiting or pending. */
  idle(): Promise<void>;
}

export interface BuildQueueOptions {
  logger: Logger;
  onDeploy?: RunDeploy;
  /**
   * Called as each build starts, when a deploy may follow it: the in-process deploy reads the
   * bucket's listing meanwhile (src/deploy/webhook-deploy.ts). What it throws is ignored.
   */
  onBuildStart?: () => void;
}

/**
 * Quiet time a burst of triggers waits for before its build starts. An editor publishing several
 * documents sends a burst of webhooks; one build serves them all.
 */
const SETTLE_MS = 500;
/**
 * What a trigger that arrives alone waits before its build starts: a second trigger within it
 * makes a burst, which waits SETTLE_MS of quiet instead. Prismic sends one webhook per publish, so
 * the usual trigger is alone, and waiting SETTLE_MS for a burst that does not come was most of an
 * editor's wait. A burst whose first trigger was built alone still coalesces: what arrives during
 * that build waits for quiet and is built once.
 */
const QUICK_SETTLE_MS = 100;
/** A steady stream of triggers cannot postpone a build longer than this. */
const MAX_WAIT_MS = 5_000;

const KEPT_DOCUMENT_IDS = 100;
/** Builds the status page lists, newest first. */
const HISTORY_SIZE = 50;

export function createBuildQueue(runBuild: RunBuild, options: BuildQueueOptions): BuildQueue {
  const { logger, onDeploy } = options;

  let pending: BuildTrigger[] = [];
  let carried: BuildTrigger[] = [];
  let current: QueueStatus["current"] = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the oldest pending trigger and the newest trigger arrived (performance.now()). */
  let firstPendingAt = 0;
  let lastTriggerAt = 0;
  let looping = false;
  let nextId = 1;
  // Nothing is known about the deploy target when the server starts: the first good build deploys.
  let deployPending = onDeploy !== undefined;
  let lastDeploy: DeployResult | null = null;
  const history: BuildRecord[] = [];
  let idleWaiters: (() => void)[] = [];

  const isIdle = () => !looping && timer === null && pending.length === 0;
  const settle = () => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  /** What is left of the quiet a build waits for: `quiet` ms since the last trigger, at most MAX_WAIT_MS since the first pending one. */
  const quietLeft = (quiet: number, now = performance.now()) =>
    Math.max(0, Math.min(quiet - (now - lastTriggerAt), MAX_WAIT_MS - (now - firstPendingAt)));

  function enqueue(trigger: BuildTrigger): void {
    const now = performance.now();
    if (pending.length === 0) firstPendingAt = now;
    lastTriggerAt = now;
    pending.push(trigger);
    // A running loop picks pending triggers up once the current build ends and they have settled.
    if (looping) return;
    // Alone, a trigger waits QUICK_SETTLE_MS; one that finds another waiting makes a burst.
    const burst = timer !== null;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = null;
        void loop();
      },
      quietLeft(burst ? SETTLE_MS : QUICK_SETTLE_MS, now),
    );
  }

  /** Triggers that arrived while a build ran are a burst: they wait for SETTLE_MS of quiet (at most MAX_WAIT_MS since the first). */
  async function settled(): Promise<void> {
    for (let left = quietLeft(SETTLE_MS); left > 0; left = quietLeft(SETTLE_MS))
      await new Promise((resolve) => setTimeout(resolve, left));
  }

  async function loop(): Promise<void> {
    looping = true;
    try {
      for (let first = true; pending.length > 0; first = false) {
        if (!first) await settled();
        const batch = [...carried, ...pending];
        pending = [];
        carried = [];
        await runOne(batch);
      }
    } finally {
      looping = false;
      settle();
    }
  }

  async function runOne(batch: BuildTrigger[]): Promise<void> {
    const id = nextId++;
    const startedAt = Date.now();
    const reasons = [...new Set(batch.map((t) => t.reason))];
    const ids = [...new Set(batch.flatMap((t) => t.documentIds ?? []))];
    current = { id, state: "building", startedAt, triggers: batch.length, reasons };
    logger.debug("webhook", `build #${id} started: ${describeBatch(batch.length, reasons, ids.length)}`);
    if (onDeploy && options.onBuildStart)
      try {
        options.onBuildStart();
      } catch (error) {
        logger.debug("webhook", `preparing the deploy failed (${describeError(error)}); it reads the bucket itself`);
      }

    let result: BuildRunResult;
    try {
      result = await runBuild(batch);
    } catch (error) {
      result = { ok: false, pagesRebuilt: 0, durationMs: Date.now() - startedAt, error: describeError(error) };
    }
    if (!result.ok) carried = compactTriggers(batch);

    const finishedAt = Date.now();
    const record: BuildRecord = {
      id,
      startedAt,
      finishedAt,
      durationMs: finishedAt - startedAt,
      waitedMs: Math.max(0, startedAt - Math.min(...batch.map((t) => t.receivedAt))),
      triggers: batch.length,
      reasons,
      documentIds: ids.slice(0, KEPT_DOCUMENT_IDS),
      documentCount: ids.length,
      pagesRebuilt: result.pagesRebuilt,
      ...(result.pagesTotal === undefined ? {} : { pagesTotal: result.pagesTotal }),
      ok: result.ok,
      ...(result.ok ? {} : { error: result.error ?? "the build reported a failure without a message" }),
    };
    history.unshift(record);
    history.length = Math.min(history.length, HISTORY_SIZE);
    logBuild(logger, record);

    // Nothing changed and the target is up to date: an `aws s3 sync` would only cost time.
    if (result.ok && onDeploy && (result.pagesRebuilt > 0 || deployPending)) {
      current = { ...current, state: "deploying", deployStartedAt: Date.now() };
      record.deploy = await runDeploy(id, onDeploy);
    }
    current = null;
  }

  async function runDeploy(id: number, deployFn: RunDeploy): Promise<DeployResult> {
    let result: DeployResult;
    try {
      result = await deployFn();
    } catch (error) {
      const message = describeError(error);
      result = {
        ok: false,
        command: "",
        durationMs: 0,
        exitCode: null,
        signal: null,
        timedOut: false,
        outputTail: "",
        error: message,
      };
    }
    lastDeploy = result;
    deployPending = !result.ok;
    if (result.ok) logger.info("webhook", `deploy after build #${id} done in ${formatMs(result.durationMs)}`);
    else
      logger.error(
        "webhook",
        `deploy after build #${id} failed in ${formatMs(result.durationMs)}: ${result.error}; it runs again after the next successful build`,
      );
    return result;
  }

  function status(): QueueStatus {
    const oldest = pending.length > 0 ? Math.min(...pending.map((t) => t.receivedAt)) : null;
    return {
      state: current ? current.state : pending.length > 0 ? "waiting" : "idle",
      current: current ? { ...current } : null,
      pending: {
        triggers: pending.length,
        documentIds: new Set(pending.flatMap((t) => t.documentIds ?? [])).size,
        oldestReceivedAt: oldest,
      },
      carried: { triggers: carried.length },
      deploy: { configured: onDeploy !== undefined, pending: deployPending, last: lastDeploy },
      builds: history.map((r) => ({ ...r })),
    };
  }

  function idle(): Promise<void> {
    if (isIdle()) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  return { enqueue, status, idle };
}

/**
 * Folds the triggers of a failed build into one per reason so that a build failing for hours
 * under a stream of webhooks carries a bounded list, not every webhook it ever saw.
 */
export function compactTriggers(triggers: BuildTrigger[]): BuildTrigger[] {
  const byReason = new Map<BuildTrigger["reason"], BuildTrigger>();
  for (const t of triggers) {
    const seen = byReason.get(t.reason);
    if (!seen) {
      byReason.set(t.reason, { ...t, ...(t.documentIds ? { documentIds: [...t.documentIds] } : {}) });
      continue;
    }
    seen.receivedAt = Math.min(seen.receivedAt, t.receivedAt);
    // "Unknown" (no list) absorbs any list: the next build must look at everything.
    if (!seen.documentIds || !t.documentIds) delete seen.documentIds;
    else seen.documentIds = [...new Set([...seen.documentIds, ...t.documentIds])];
  }
  return [...byReason.values()];
}

function describeBatch(triggers: number, reasons: string[], documents: number): string {
  const docs = documents > 0 ? `, ${documents} document${documents === 1 ? "" : "s"}` : "";
  return `${triggers} trigger${triggers === 1 ? "" : "s"} (${reasons.join(", ")}${docs})`;
}

function logBuild(logger: Logger, r: BuildRecord): void {
  const what = describeBatch(r.triggers, r.reasons, r.documentCount);
  const waited = r.waitedMs >= 1 ? ` (waited ${formatMs(r.waitedMs)})` : "";
  if (r.ok) {
    const pages = r.pagesTotal === undefined ? `${r.pagesRebuilt}` : `${r.pagesRebuilt} of ${r.pagesTotal}`;
    logger.info(
      "webhook",
      `build #${r.id} ok in ${formatMs(r.durationMs)}${waited} for ${what}: ${pages} pages rebuilt`,
    );
  } else {
    logger.error(
      "webhook",
      `build #${r.id} failed in ${formatMs(r.durationMs)}${waited} for ${what}: ${r.error} (the previous site stays live)`,
    );
  }
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `[${code}] ${error.message}` : error.message;
  }
  return String(error);
}
