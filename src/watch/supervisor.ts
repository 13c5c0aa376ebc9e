/**
 * Runs watch mode in a child process and starts it again when it exits to restart: after a change to
 * nzf-build's own code, the child recompiles lib/ and exits with RESTART_EXIT_CODE, and a new child
 * runs the new code on the same port (open pages reconnect and reload). A new process is the only
 * clean way to load recompiled modules: Node caches the old ones for the life of a process.
 *
 * Signals: Ctrl+C reaches both processes (one process group) and the child stops itself; a signal
 * sent to this process alone is passed on as a "stop" message. A second Ctrl+C ends both at once.
 */
import { fork, type ChildProcess } from "node:child_process";
import { constants } from "node:os";
import type { Logger } from "../core/logger.js";

/** The child's exit code that asks for a restart (EX_TEMPFAIL). */
export const RESTART_EXIT_CODE = 75;

/** Set in the child's environment, with the port it should take again after a restart. */
export const CHILD_ENV = "NZF_WATCH_CHILD";
export const PORT_ENV = "NZF_WATCH_PORT";
export const PAYMENTS_PORT_ENV = "NZF_WATCH_PAYMENTS_PORT";

/** Messages between the child and this process. */
export type ToSupervisor = { type: "listening"; port: number; paymentsPort?: number };
export type ToChild = { type: "stop" };

/** Past this after a stop was asked, a child that has not exited is killed (the stop must take under 2 s). */
const KILL_AFTER_MS = 1800;

/** Runs the child until it stops for good; resolves with the exit code this process should have. */
export async function superviseWatch(logger: Logger, argv: string[] = process.argv): Promise<number> {
  let child: ChildProcess | undefined;
  let stopping = false;
  let signals = 0;
  let ports: Record<string, string> = {};

  const onSignal = () => {
    if (++signals > 1) {
      child?.kill("SIGKILL");
      process.exit(130);
    }
    stopping = true;
    if (child?.connected) child.send({ type: "stop" } satisfies ToChild, () => undefined);
    setTimeout(() => child?.kill("SIGKILL"), KILL_AFTER_MS).unref();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    for (;;) {
      child = fork(argv[1]!, argv.slice(2), {
        env: { ...process.env, [CHILD_ENV]: "1", ...ports },
        execArgv: process.execArgv,
        stdio: "inherit",
      });
      child.on("message", (message: ToSupervisor) => {
        if (message?.type !== "listening") return;
        ports = {
          [PORT_ENV]: String(message.port),
          ...(message.paymentsPort ? { [PAYMENTS_PORT_ENV]: String(message.paymentsPort) } : {}),
        };
      });
      const code = await new Promise<number>((resolve) => {
        child!.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
      });
      if (code === RESTART_EXIT_CODE && !stopping) {
        logger.info("watch", "restarting with the recompiled nzf-build");
        continue;
      }
      // Stopped by a signal on its way down counts as a clean stop.
      return stopping && (code === 130 || code === 143) ? 0 : code;
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
