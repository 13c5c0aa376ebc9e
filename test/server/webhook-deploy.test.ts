import type { SpawnOptions } from "node:child_process";
import { describe, expect, it, vi } from "vitest";
import { createMemoryLogger } from "../../src/core/logger.js";
import { createBuildQueue, type BuildRunResult, type RunBuild } from "../../src/server/build-queue.js";
import { runDeployCommand } from "../../src/server/deploy.js";
import { hangLimit } from "../support/time-limits.js";

/**
 * While `on`, the system refuses to start the command: Node's own spawn, in a working folder that
 * does not exist (ENOENT, as when the server's folder is removed under it).
 */
const refuseToStart = vi.hoisted(() => ({ on: false }));
vi.mock("node:child_process", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:child_process")>();
  const spawn = (command: string, options: SpawnOptions) =>
    actual.spawn(command, refuseToStart.on ? { ...options, cwd: "/nonexistent/nzf-deploy-folder" } : options);
  return { ...actual, spawn };
});

describe("runDeployCommand (real shell commands)", () => {
  it("reports success with the exit code and the output", async () => {
    const result = await runDeployCommand({ command: "echo uploading; echo done >&2" });
    expect(result).toMatchObject({ ok: true, exitCode: 0, signal: null, timedOut: false });
    expect(result.outputTail).toContain("uploading\n");
    expect(result.outputTail).toContain("done\n");
    expect(result.error).toBeUndefined();
  });

  it("reports a failure with the exit code and the last line of output", async () => {
    const result = await runDeployCommand({ command: "echo 'upload failed: bucket not found' >&2; exit 3" });
    expect(result).toMatchObject({ ok: false, exitCode: 3 });
    // The command itself is not repeated: it can name a bucket or hold a token, and /status shows this text.
    expect(result.error).toBe("the deploy command exited with code 3; last output: upload failed: bucket not found");
  });

  it("keeps only the tail of a long output", async () => {
    // About 108 KB of output, of which the last 4,000 characters are kept.
    const result = await runDeployCommand({ command: "seq 1 20000" });
    expect(result.ok).toBe(true);
    expect(result.outputTail.length).toBe(4000);
    expect(result.outputTail.endsWith("19999\n20000\n")).toBe(true);
  });

  it("stops the whole command after the timeout, children included", async () => {
    // `sleep` holds the output pipe open: if only the shell were killed, this would take 30 s.
    const result = await runDeployCommand({
      command: "echo started; sleep 30; echo never",
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ ok: false, timedOut: true });
    // Well before the 30 s `sleep` would end (a hang limit, scaled for a loaded machine).
    expect(result.durationMs).toBeLessThan(hangLimit(5000));
    expect(result.outputTail).toBe("started\n");
    expect(result.error).toMatch(/took longer than 300 ms and was stopped; last output: started$/);
  });

  it("does not pass the webhook secret to the command", async () => {
    const env = { PATH: process.env.PATH, NZF_WEBHOOK_SECRET: "do-not-leak-me", OTHER: "kept" };
    const result = await runDeployCommand({ command: 'echo "[$NZF_WEBHOOK_SECRET][$OTHER]"', env });
    expect(result.outputTail).toBe("[][kept]\n");
  });

  it("passes no secret-looking variable unless it is listed in passEnv", async () => {
    const env = {
      PATH: process.env.PATH,
      PRISMIC_ACCESS_TOKEN: "prismic-token-value",
      STRIPE_SECRET_KEY: "sk-value",
      AWS_ACCESS_KEY_ID: "AKIA-value",
      AWS_SECRET_ACCESS_KEY: "aws-secret-value",
      NZF_WEBHOOK_SECRET: "webhook-secret",
      BUCKET: "nzf-site",
    };
    const show =
      'echo "[$PRISMIC_ACCESS_TOKEN][$STRIPE_SECRET_KEY][$AWS_ACCESS_KEY_ID][$AWS_SECRET_ACCESS_KEY][$NZF_WEBHOOK_SECRET][$BUCKET]"';
    expect((await runDeployCommand({ command: show, env })).outputTail).toBe("[][][][][][nzf-site]\n");
    // Asked for by name: the deploy's own AWS keys. The webhook secret is never passed.
    const passEnv = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "NZF_WEBHOOK_SECRET"];
    expect((await runDeployCommand({ command: show, env, passEnv })).outputTail).toBe(
      "[][][AKIA-value][aws-secret-value][][nzf-site]\n",
    );
  });

  it("reports a command that cannot start", async () => {
    refuseToStart.on = true;
    const result = await runDeployCommand({ command: "true" }).finally(() => (refuseToStart.on = false));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/could not be started/);
  });
});

describe("deploy after builds", () => {
  it("retries a failed deploy after the next successful build, and skips it when nothing changed", async () => {
    let command = "echo 'upload failed: network unreachable' >&2; exit 1";
    let deploys = 0;
    const onDeploy = () => {
      deploys++;
      return runDeployCommand({ command });
    };
    const results: BuildRunResult[] = [
      { ok: true, pagesRebuilt: 5, durationMs: 1 },
      { ok: true, pagesRebuilt: 0, durationMs: 1 },
      { ok: true, pagesRebuilt: 0, durationMs: 1 },
      { ok: false, pagesRebuilt: 0, durationMs: 1, error: "render failed" },
      { ok: true, pagesRebuilt: 2, durationMs: 1 },
    ];
    const runBuild: RunBuild = async () => results.shift()!;
    const logger = createMemoryLogger();
    const queue = createBuildQueue(runBuild, { logger, onDeploy });
    const build = async () => {
      queue.enqueue({ reason: "webhook", receivedAt: Date.now() });
      await queue.idle();
      return queue.status();
    };

    let status = await build();
    expect(deploys).toBe(1);
    expect(status.deploy).toMatchObject({ configured: true, pending: true, last: { ok: false, exitCode: 1 } });
    expect(status.builds[0]!.deploy).toMatchObject({ ok: false, outputTail: "upload failed: network unreachable\n" });
    expect(logger.lines.at(-1)).toMatchObject({ level: "error" });
    expect(logger.lines.at(-1)!.message).toMatch(
      /^deploy after build #1 failed in \d+ ms: .*exited with code 1.*it runs again after the next successful build$/,
    );

    // Nothing rebuilt, but the last deploy failed: deploy again.
    command = "true";
    status = await build();
    expect(deploys).toBe(2);
    expect(status.deploy).toMatchObject({ pending: false, last: { ok: true } });
    expect(status.builds[0]!.deploy).toMatchObject({ ok: true });

    // Nothing rebuilt and the target is up to date: no deploy.
    status = await build();
    expect(deploys).toBe(2);
    expect(status.builds[0]!.deploy).toBeUndefined();

    // A failed build never deploys.
    status = await build();
    expect(deploys).toBe(2);
    expect(status.builds[0]).toMatchObject({ ok: false });
    expect(status.builds[0]!.deploy).toBeUndefined();

    status = await build();
    expect(deploys).toBe(3);
    expect(status.builds[0]!.deploy).toMatchObject({ ok: true, command: "true" });
  });
});
