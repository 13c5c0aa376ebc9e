/**
 * The deploy step after a successful build: the in-process `nzf-build deploy` (createInProcessDeployer,
 * when a bucket is set), or one shell command (for example
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
  /**
   * The folder it runs in: the project folder (`--root`), so a relative `dist` in the command is this
   * project's published site whichever folder the server was started from. Default: the process's.
   */
  folder?: string;
  /** Default 10 minutes: a first full `aws s3 sync` of every image can take a while. */
  timeoutMs?: number;
  /** Base environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * Secret-looking variables (`isSecretEnvName`) are removed before the command runs, so a token
   * cannot leak into its output or to the tools it starts. Names listed here are passed anyway
   * (`NZF_DEPLOY_ENV`, e.g. AWS_ACCESS_KEY_ID,AWS_SECRET_ACCESS_KEY when the keys live in the environment).
   */
  passEnv?: string[];
}

/** Names of variables that hold secrets: tokens, keys, passwords, the webhook secret. */
const SECRET_ENV = /SECRET|TOKEN|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|COOKIE|AUTH|(^|_)KEY(_|$)/i;

export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV.test(name);
}

/** "A, B c" → ["A", "B", "c"]: the NZF_DEPLOY_ENV list. */
export function parseEnvNames(text: string | undefined): string[] {
  return (text ?? "").split(/[\s,]+/).filter(Boolean);
}

/** The deploy command's environment: the base without secret-looking variables, except those passed on purpose. */
export function deployEnv(base: NodeJS.ProcessEnv, passEnv: readonly string[] = []): NodeJS.ProcessEnv {
  const pass = new Set(passEnv);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    // The webhook secret is never passed: nothing a deploy does needs it.
    if (name === "NZF_WEBHOOK_SECRET" || (isSecretEnvName(name) && !pass.has(name))) continue;
    env[name] = value;
  }
  return env;
}

export const DEFAULT_DEPLOY_TIMEOUT_MS = 10 * 60_000;
/** Between SIGTERM and SIGKILL after a timeout: time for `aws` to stop its uploads cleanly. */
const KILL_GRACE_MS = 5_000;
/** The output kept for /status and the logs: the last lines, where a failure says why. */
const TAIL_CHARS = 4_000;
/** How long an in-process deploy told to stop at its deadline may take before it is abandoned. */
const ABANDON_GRACE_MS = 10_000;

/** Returns a function that runs the deploy command once per call. */
export function createDeployer(options: DeployOptions): () => Promise<DeployResult> {
  return () => runDeployCommand(options);
}

export function runDeployCommand(options: DeployOptions): Promise<DeployResult> {
  const { command } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_DEPLOY_TIMEOUT_MS;
  const env = deployEnv(options.env ?? process.env, options.passEnv);

  const started = performance.now();
  let tail = "";
  const keep = (chunk: string) => {
    tail += chunk;
    // Trim in big steps so a chatty command does not cost a copy per chunk.
    if (tail.length > TAIL_CHARS * 2) tail = tail.slice(-TAIL_CHARS);
  };

  return new Promise((resolve) => {
    // detached: the command gets its own process group, so a timeout can stop the whole
    // pipeline (`sh` and the `aws` it started), not just the shell.
    const child = spawn(command, {
      shell: true,
      ...(options.folder ? { cwd: options.folder } : {}),
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
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
      killTimer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
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
      const outputTail = tail.slice(-TAIL_CHARS);
      const ok = !spawnError && !timedOut && exitCode === 0;
      const error = ok ? undefined : describeFailure(exitCode, signal, timedOut, timeoutMs, outputTail, spawnError);
      resolve({ ok, command, durationMs, exitCode, signal, timedOut, outputTail, ...(error ? { error } : {}) });
    };
    child.on("error", (error) => finish(null, null, error));
    child.on("close", (code, signal) => finish(code, signal));
  });
}

/** The command is left out: it can hold a bucket name or a token, and this text is shown by /status. */
function describeFailure(
  exitCode: number | null,
  signal: string | null,
  timedOut: boolean,
  timeoutMs: number,
  outputTail: string,
  spawnError?: Error,
): string {
  if (spawnError)
    return `the deploy command could not be started (${spawnError.message}); check the shell and the working folder`;
  const lastLine = outputTail.trim().split("\n").at(-1)?.trim();
  const said = lastLine ? `; last output: ${lastLine}` : "";
  if (timedOut) return `the deploy command took longer than ${formatMs(timeoutMs)} and was stopped${said}`;
  if (signal) return `the deploy command was killed by ${signal}${said}`;
  return `the deploy command exited with code ${exitCode}${said}`;
}

/**
 * The in-process deploy (`nzf-build deploy` to the configured bucket, src/deploy/) as the queue's
 * deploy step: its summary becomes the output shown by /status, its error the failure.
 *
 * It has a deadline of its own (`timeoutMs`, NZF_DEPLOY_TIMEOUT): the signal given to `run` is
 * aborted then (the deploy stops its requests and fails with DEPLOY_TIMED_OUT), and should the
 * deploy still not return 10 s later, it is abandoned and reported as timed out, so a stuck
 * deploy never holds the queue. It stays pending, and runs again after the next successful build.
 */
export function createInProcessDeployer(
  label: string,
  run: (signal: AbortSignal) => Promise<string>,
  timeoutMs: number = DEFAULT_DEPLOY_TIMEOUT_MS,
): () => Promise<DeployResult> {
  return async () => {
    const started = performance.now();
    const controller = new AbortController();
    const result = (ok: boolean, text: string, timedOut = false): DeployResult => ({
      ok,
      command: label,
      durationMs: performance.now() - started,
      exitCode: ok ? 0 : null,
      signal: null,
      timedOut,
      outputTail: text,
      ...(ok ? {} : { error: text }),
    });
    let abandon: ReturnType<typeof setTimeout> | undefined;
    const deadline = setTimeout(() => {
      controller.abort(new Error(`the deploy passed its deadline of ${formatMs(timeoutMs)}`));
    }, timeoutMs);
    const abandoned = new Promise<DeployResult>((resolve) => {
      controller.signal.addEventListener("abort", () => {
        abandon = setTimeout(
          () =>
            resolve(
              result(
                false,
                `[DEPLOY_TIMED_OUT] ${label} did not finish within ${formatMs(timeoutMs)} and did not stop when told to; it was abandoned and runs again after the next successful build`,
                true,
              ),
            ),
          ABANDON_GRACE_MS,
        );
      });
    });
    const finished = run(controller.signal).then(
      (said) => result(true, said),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        const code = (error as { code?: unknown }).code;
        const text = typeof code === "string" ? `[${code}] ${message}` : message;
        return result(false, text, code === "DEPLOY_TIMED_OUT");
      },
    );
    try {
      return await Promise.race([finished, abandoned]);
    } finally {
      clearTimeout(deadline);
      clearTimeout(abandon);
    }
  };
}
