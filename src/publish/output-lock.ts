/**
 * One writer per output folder. A build holds `<out>.versions/lock` from before it reads the state it
 * keeps for that folder (the published version, the version trees, the build record) until it has
 * published, so a second build into the same folder waits for the first instead of mixing its files
 * in.
 *
 * The lock file is created whole in one step: the holder's details are written to a file of its own,
 * then hard-linked to the lock's name, which fails (EEXIST) when the lock is held. A process never
 * holds a lock that is half written, and a crash leaves either no lock or a complete one.
 *
 * A lock left by a process that died (kill -9, a power cut) is taken over: its pid is no longer alive,
 * or is alive but started at another time (a pid reused since). Only locks made on this machine are
 * judged that way; one from another host (a shared disk) is waited for.
 *
 * Waiting, not failing at once: builds are short, and the webhook server, watch mode and a person
 * running the CLI all want their build to run after the one in progress. The wait is bounded
 * (WAIT_MS); after it the build fails with OUTPUT_LOCKED naming the holder.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { NzfError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { versionsDirFor } from "./versions.js";

export const WAIT_MS = 10 * 60_000;

export interface LockHolder {
  pid: number;
  /** The process's start time as the kernel counts it (Linux), to tell a reused pid apart. */
  start: string | null;
  host: string;
  command: string;
  since: string;
  token: string;
}

export interface OutputLock {
  readonly file: string;
  readonly holder: LockHolder;
  /** Releases the lock if this process still holds it. Safe to call more than once. */
  release(): void;
}

export function lockFileFor(outDir: string): string {
  return join(versionsDirFor(outDir), "lock");
}

/** The start time of a process (Linux: field 22 of /proc/<pid>/stat), or null where unknown. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the holder of a lock is gone (only judged for locks made on this machine). */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  if (!Number.isInteger(holder.pid) || holder.pid <= 0 || !isAlive(holder.pid)) return true;
  const start = processStart(holder.pid);
  return holder.start !== null && start !== null && start !== holder.start;
}

function readHolder(file: string): { holder: LockHolder | null; ino: number } | null {
  try {
    const ino = statSync(file).ino;
    try {
      return { holder: JSON.parse(readFileSync(file, "utf8")) as LockHolder, ino };
    } catch {
      return { holder: null, ino };
    }
  } catch {
    return null;
  }
}

export function describeHolder(holder: LockHolder | null): string {
  if (!holder) return "a build whose lock file is unreadable";
  return `pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`} ("${holder.command}") since ${holder.since}`;
}

function tryCreate(file: string, holder: LockHolder): boolean {
  const temp = `${file}.${holder.pid}.${holder.token}`;
  writeFileSync(temp, JSON.stringify(holder));
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Takes a lock whose holder is gone: renames it aside and checks that what was renamed is the lock
 * judged (not one another waiter made after taking it over first); one renamed by mistake is put back.
 */
function takeOver(file: string, judged: number, token: string): void {
  const aside = `${file}.gone-${token}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // taken over by another waiter already
  }
  if (statSync(aside).ino !== judged) {
    try {
      linkSync(aside, file);
    } catch {
      // Another process holds it now; the one renamed by mistake notices at release.
    }
  }
  unlinkSync(aside);
}

/** How often a waiting build looks at the lock again. */
const POLL_MS = 100;

/** Takes the lock on `outDir`, waiting up to WAIT_MS for a live holder; `logger` hears of waits and take-overs. */
export async function lockOutput(outDir: string, logger?: Logger): Promise<OutputLock> {
  const file = lockFileFor(outDir);
  mkdirSync(versionsDirFor(outDir), { recursive: true });
  const holder: LockHolder = {
    pid: process.pid,
    start: processStart(process.pid),
    host: hostname(),
    // What the holder is doing, shown to a build that waits.
    command: ["nzf-build", ...process.argv.slice(2)].join(" ").slice(0, 200),
    since: new Date().toISOString(),
    token: randomBytes(6).toString("hex"),
  };
  const started = Date.now();
  let said = false;
  for (;;) {
    if (tryCreate(file, holder)) break;
    const current = readHolder(file);
    if (!current) continue; // released between the two calls
    // A lock file that cannot be parsed was written by no version of this module; it is judged by age.
    const gone = current.holder ? holderIsGone(current.holder) : Date.now() - statSync(file).mtimeMs > WAIT_MS;
    if (gone) {
      logger?.warn(
        "publish",
        `Taking over the lock on ${outDir} from ${describeHolder(current.holder)}, which is no longer running`,
      );
      takeOver(file, current.ino, holder.token);
      continue;
    }
    if (Date.now() - started >= WAIT_MS) {
      throw new NzfError(
        "OUTPUT_LOCKED",
        `Another build is writing ${outDir}: ${describeHolder(current.holder)}; waited ${Math.round(WAIT_MS / 1000)} s for it`,
        { subject: file },
      );
    }
    if (!said) {
      logger?.info(
        "publish",
        `Waiting for another build writing ${outDir} to finish: ${describeHolder(current.holder)}`,
      );
      said = true;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const release = () => {
    process.removeListener("exit", release);
    const current = readHolder(file);
    if (current?.holder?.token === holder.token) {
      try {
        unlinkSync(file);
      } catch {
        // gone already
      }
    }
  };
  // An exit that skips the build's own release (an uncaught error, process.exit) frees the lock too.
  process.once("exit", release);
  return { file, holder, release };
}
