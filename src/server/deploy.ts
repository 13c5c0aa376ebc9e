/**
 * The optional deploy step after a successful build: one shell command (for example
 * `aws s3 sync dist s3://bucket --delete`), run with a timeout, keeping only the tail of its output
 * for the status page and the logs. A failed deploy does not touch dist/; the build queue marks the
 * deploy pending and runs it again after the next successful build.
 */

import { spawn } from "node:child_process";
import { formatMs } from "../core/logger.js";

export interface DeployResult {
  ok: boolean;
  command: string;
  durationMs: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** The last few kilobytes of stdout and stderr together. */
  outputTail: string;
  error?: string;
}

export interface DeployOptions {
  /** Run by /bin/sh, so pipes, `&&` and environment variables work as on a terminal. */
  command: string;
  cwd?: string;
  /** Default 10 minutes: a first full `aws s3 sync` of every image can take a while. */
  timeoutMs?: number;
  /** Grace period between SIGTERM and SIGKILL after a timeout (default 5 s). */
  killGraceMs?: number;
  /** Default 4000 characters. */
  tailChars?: number;
  /** Base environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Variables removed before the command runs; the webhook secret by default, so it cannot leak into output. */
  hideEnv?: string[];
}

export const DEFAULT_DEPLOY_TIMEOUT_MS = 10 * 60_000;

/** Returns a function that runs the deploy command once per call. */
export function createDeployer(options: DeployOptions): () => Promise<DeployResult> {
  return () => runDeployCommand(options);
}

export function runDeployCommand(options: DeployOptions): Promise<DeployResult> {
  const { command } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_DEPLOY_TIMEOUT_MS;
  const tailChars = options.tailChars ?? 4000;
  const env = { ...(options.env ?? process.env) };
  for (const name of options.hideEnv ?? ["NZF_WEBHOOK_SECRET"]) delete env[name];

  const started = performance.now();
  let tail = "";
  const keep = (chunk: string) => {
    tail += chunk;
    // Trim in big steps so a chatty command does not cost a copy per chunk.
    if (tail.length > tailChars * 2) tail = tail.slice(-tailChars);
  };

  return new Promise((resolve) => {
    // detached: the command gets its own process group, so a timeout can stop the whole
    // pipeline (`sh` and the `aws` it started), not just the shell.
    const child = spawn(command, { shell: true, cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let timedOut = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), options.killGraceMs ?? 5000);
    }, timeoutMs);

    child.stdout.setEncoding("utf8").on("data", keep);
    child.stderr.setEncoding("utf8").on("data", keep);

    let settled = false;
    const finish = (exitCode: number | null, signal: string | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      const durationMs = performance.now() - started;
      const outputTail = tail.slice(-tailChars);
      const ok = !spawnError && !timedOut && exitCode === 0;
      const error = ok ? undefined : describeFailure(command, exitCode, signal, timedOut, timeoutMs, outputTail, spawnError);
      resolve({ ok, command, durationMs, exitCode, signal, timedOut, outputTail, ...(error ? { error } : {}) });
    };
    child.on("error", (error) => finish(null, null, error));
    child.on("close", (code, signal) => finish(code, signal));
  });
}

function describeFailure(
  command: string,
  exitCode: number | null,
  signal: string | null,
  timedOut: boolean,
  timeoutMs: number,
  outputTail: string,
  spawnError?: Error,
): string {
  if (spawnError) return `the deploy command \`${command}\` could not be started (${spawnError.message}); check the shell and the working folder`;
  const lastLine = outputTail.trim().split("\n").at(-1)?.trim();
  const said = lastLine ? `; last output: ${lastLine}` : "";
  if (timedOut) return `the deploy command \`${command}\` took longer than ${formatMs(timeoutMs)} and was stopped${said}`;
  if (signal) return `the deploy command \`${command}\` was killed by ${signal}${said}`;
  return `the deploy command \`${command}\` exited with code ${exitCode}${said}`;
}
