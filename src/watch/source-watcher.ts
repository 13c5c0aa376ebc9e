/**
 * The project's files as watch mode sees them: chokidar's events, and the saves it leaves out.
 * chokidar reports no second change of a file within 50 ms of the last one it reported (its
 * change throttle), nor a change it sees within 5 ms of the one before. A save made that soon after
 * another (an editor that truncates and then writes, a formatter that rewrites the file it was
 * given) was never reported: when the rebuild of the first save had already read the file, no
 * rebuild followed the second, and the developer's fix stayed unseen.
 *
 * So once chokidar's window after a report has passed, the file is looked at again: when a rebuild
 * took it (`taking`) within that window and it is no longer what it was then (inode, size,
 * modification and change times), it is reported again. A file no rebuild took yet needs nothing:
 * the rebuild that takes it reads what the window left. Comparing with what chokidar saw instead
 * would build twice after most saves (chokidar often looks between an editor's truncate and write).
 *
 * A change that leaves a file empty is that truncate, as a rule: it is reported once the file has
 * content again, or after EMPTY_FILE_CHECKS looks (a file emptied on purpose). Reported at once,
 * a rebuild read the empty file and printed errors the developer never wrote (a template with no
 * exports: "7 render failures"), between two saves of the same error. Vite waits the same way.
 */
import { watch as watchFiles } from "chokidar";
import { statSync } from "node:fs";
import { identityOfStats } from "../core/fs.js";

/** chokidar's change throttle (chokidar/index.js, `_throttle(EV.CHANGE, path, 50)`). */
const CHOKIDAR_CHANGE_THROTTLE_MS = 50;
/** When a reported file is looked at again: after chokidar's window for it has closed. */
export const RECHECK_MS = CHOKIDAR_CHANGE_THROTTLE_MS + 10;
/** How often, and how many times, an emptied file is looked at for the write that follows. */
const EMPTY_FILE_CHECK_MS = 10;
const EMPTY_FILE_CHECKS = 10;

export interface SourceWatcher {
  /** Resolves once the initial scan is done: changes after it are reported. */
  ready: Promise<void>;
  /** A rebuild is about to read these reported files (absolute paths): a later save of one is reported. */
  taking(paths: readonly string[]): void;
  close(): Promise<void>;
}

export interface SourceWatcherOptions {
  /** Paths never watched nor reported. */
  ignored: (path: string) => boolean;
  /** A file or folder was added, changed or removed (an absolute path). */
  onChange: (path: string) => void;
  onError: (error: Error) => void;
}

export function watchSources(paths: string[], options: SourceWatcherOptions): SourceWatcher {
  const watcher = watchFiles(paths, { ignoreInitial: true, ignored: options.ignored });
  // Files reported in the last RECHECK_MS, and, once a rebuild took one, its identity then.
  const taken = new Map<string, string | null>();
  const checks = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const checkAfterWindow = (path: string) => {
    clearTimeout(checks.get(path));
    taken.delete(path);
    const timer = setTimeout(() => {
      checks.delete(path);
      const then = taken.get(path);
      taken.delete(path);
      if (then !== undefined && !closed && identityNow(path) !== then) options.onChange(path);
    }, RECHECK_MS);
    checks.set(path, timer);
  };

  // Emptied files waiting for their content, each with the looks left.
  const emptied = new Map<string, NodeJS.Timeout>();
  const reportWhenWritten = (path: string, looksLeft: number) => {
    const timer = setTimeout(() => {
      emptied.delete(path);
      if (closed) return;
      if (looksLeft > 1 && sizeNow(path) === 0) reportWhenWritten(path, looksLeft - 1);
      else options.onChange(path);
    }, EMPTY_FILE_CHECK_MS);
    emptied.set(path, timer);
  };

  watcher.on("all", (event, path) => {
    // First, so that a rebuild taking the file as it is told counts.
    if (event === "add" || event === "change") checkAfterWindow(path);
    clearTimeout(emptied.get(path));
    emptied.delete(path);
    if (event === "change" && sizeNow(path) === 0) return reportWhenWritten(path, EMPTY_FILE_CHECKS);
    options.onChange(path);
  });
  watcher.on("error", (error) => options.onError(error as Error));
  const ready = new Promise<void>((resolve) => watcher.once("ready", () => resolve()));

  return {
    ready,
    taking(files) {
      for (const path of files) if (checks.has(path)) taken.set(path, identityNow(path));
    },
    async close() {
      closed = true;
      for (const timer of [...checks.values(), ...emptied.values()]) clearTimeout(timer);
      checks.clear();
      emptied.clear();
      await watcher.close();
    },
  };
}

/** The file's size now; null when it is gone. */
function sizeNow(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** The file's identity now (src/core/fs.ts); null when it is gone. */
function identityNow(path: string): string | null {
  try {
    return identityOfStats(statSync(path));
  } catch {
    return null;
  }
}
