/**
 * What the webhook server's `/health` and `/status` show. Both may be reached from outside (the
 * health check is public behind the documented proxy), so neither shows a command, a token or an
 * internal URL: error texts and deploy output are redacted, the deploy command is left out, and
 * `/health` gives error codes only. The full texts are in the server's log.
 */
import { findSecrets } from "../publish/secret-scan.js";
import type { DeployResult } from "./deploy.js";
import type { BuildRecord, QueueStatus } from "./build-queue.js";

export interface Health {
  /** False (HTTP 503) while the newest finished build or the last deploy failed. */
  ok: boolean;
  state: QueueStatus["state"];
  /** Why it is unhealthy, in words without secrets or URLs. */
  reason?: string;
  lastBuild: { id: number; ok: boolean; finishedAt: number; errorCode?: string } | null;
  /** When the newest successful build finished (null: none since the server started). */
  lastGoodBuildAt: number | null;
  /** Failed builds since the last successful one. */
  failuresSinceLastGood: number;
}

/**
 * The rule: unhealthy as soon as the newest finished build failed (the content editors published
 * is not on the site, and a failed build is not retried on its own), or the last deploy failed
 * (the host does not have the newest build). Healthy again after the next good build and deploy.
 * No build finished yet (the server just started) counts as healthy. Either way the previous site
 * stays live: unhealthy means "stale, look at the log", not "down".
 */
export interface HealthClock {
  now: number;
  /** A deploy running longer than this is stuck (its deadline, NZF_DEPLOY_TIMEOUT, plus a grace). */
  deployStuckAfterMs: number;
}

export function healthOf(status: QueueStatus, clock?: HealthClock): Health {
  const builds = status.builds;
  const last = builds[0];
  const failures = builds.findIndex((b) => b.ok);
  const failuresSinceLastGood = failures < 0 ? builds.length : failures;
  const lastGood = builds.find((b) => b.ok);
  const deployFailed = status.deploy.last !== null && !status.deploy.last.ok;
  const deploying = status.current?.state === "deploying" ? status.current.deployStartedAt : undefined;
  const stuck = clock && deploying !== undefined && clock.now - deploying > clock.deployStuckAfterMs;
  const reason = stuck
    ? `the deploy after build #${status.current!.id} has run for ${Math.round((clock.now - deploying) / 1000)} s, past its deadline; the host has an older build`
    : last && !last.ok
      ? `the last ${failuresSinceLastGood === 1 ? "build" : `${failuresSinceLastGood} builds`} failed${errorCode(last.error) ? ` (${errorCode(last.error)})` : ""}; the previous site is still served`
      : deployFailed
        ? `the last deploy failed${errorCode(status.deploy.last?.error) ? ` (${errorCode(status.deploy.last?.error)})` : ""}; the host still has an older build`
        : undefined;
  return {
    ok: reason === undefined,
    state: status.state,
    ...(reason ? { reason } : {}),
    lastBuild: last
      ? {
          id: last.id,
          ok: last.ok,
          finishedAt: last.finishedAt,
          ...(errorCode(last.error) ? { errorCode: errorCode(last.error) } : {}),
        }
      : null,
    lastGoodBuildAt: lastGood ? lastGood.finishedAt : null,
    failuresSinceLastGood,
  };
}

/** The catalogue code of a build error ("[PRISMIC_UNAVAILABLE] ..."), if it has one. */
function errorCode(error: string | undefined): string | undefined {
  return error ? /^\[([A-Z][A-Z0-9_]*)\]/.exec(error)?.[1] : undefined;
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>)\]]+/gi;

/** An AWS access key id (AKIA…, ASIA…): not a secret alone, but it names the account and the user. */
const AWS_KEY_ID = /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g;

/**
 * Text with every URL and every listed secret value replaced, and every line in which the site's
 * secret scan (src/publish/secret-scan.ts, the check that refuses to publish a page) finds a
 * secret replaced whole: a deploy's output may print a key it was given, which the list of
 * configured values cannot know.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join("***");
  out = out.replace(URL_PATTERN, "<url>");
  return out
    .split("\n")
    .map((line) => {
      const found = findSecrets(line);
      return found.length
        ? `[a line holding a secret was removed: ${kinds(found)}]`
        : line.replace(AWS_KEY_ID, "<aws-access-key-id>");
    })
    .join("\n");
}

/** The kinds of secrets found, without any of their characters (a Stripe finding is a key's first characters). */
function kinds(found: string[]): string {
  const kind = (f: string) => {
    const stripe = /^([rs]k_(?:live|test))_/.exec(f);
    if (stripe) return `a Stripe ${stripe[1]} key`;
    if (f.startsWith("whsec_")) return "a Stripe webhook secret";
    return f.replace(/\s*\(split by markup or encoded\)$/, "");
  };
  return [...new Set(found.map(kind))].join(", ");
}

type PublicDeploy = Omit<DeployResult, "command">;

function publicDeploy(result: DeployResult, secrets: readonly string[]): PublicDeploy {
  const { command: _command, ...rest } = result;
  return {
    ...rest,
    outputTail: redactText(rest.outputTail, secrets),
    ...(rest.error ? { error: redactText(rest.error, secrets) } : {}),
  };
}

function publicBuild(
  build: BuildRecord,
  secrets: readonly string[],
): Omit<BuildRecord, "deploy"> & { deploy?: PublicDeploy } {
  const { deploy, ...rest } = build;
  return {
    ...rest,
    ...(rest.error ? { error: redactText(rest.error, secrets) } : {}),
    ...(deploy ? { deploy: publicDeploy(deploy, secrets) } : {}),
  };
}

/** The queue's status without the deploy command, URLs or secret values. */
export function publicStatus(status: QueueStatus, secrets: readonly string[]) {
  return {
    queue: {
      ...status,
      deploy: { ...status.deploy, last: status.deploy.last ? publicDeploy(status.deploy.last, secrets) : null },
      builds: status.builds.map((b) => publicBuild(b, secrets)),
    },
  };
}
