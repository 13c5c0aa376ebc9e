/**
 * A build that fails because the disk refused a write (full, read-only, failing, not writable)
 * fails with one coded error, `OUTPUT_WRITE_FAILED`, naming the system's code and the file, rather
 * than Node's raw `ENOSPC: no space left on device, write` with a stack. Errors that already carry
 * a code of the catalogue (CACHE_UNUSABLE, PUBLISH_FAILED...) are left as they are.
 */
import { NzfError } from "../core/errors.js";

/** The system error codes that mean "this file could not be written", whatever the file. */
const WRITE_ERRNOS = new Set(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "EIO", "EMFILE", "ENFILE", "EFBIG"]);

export function writeFailureOf(error: unknown, outDir: string): unknown {
  if (error instanceof NzfError || !(error instanceof Error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== "string" || !WRITE_ERRNOS.has(code)) return error;
  const { path, dest } = error as NodeJS.ErrnoException & { dest?: string };
  const file = dest ?? path;
  return new NzfError(
    "OUTPUT_WRITE_FAILED",
    `The build could not write ${file ? `to ${file}` : "a file"} (${code}: ${reasonOf(code)}); the previous site is still published`,
    { subject: file ?? outDir, cause: error },
  );
}

function reasonOf(code: string): string {
  switch (code) {
    case "ENOSPC":
      return "no space left on the disk";
    case "EDQUOT":
      return "the disk quota is used up";
    case "EROFS":
      return "the file system is read-only";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EIO":
      return "the disk reported an input/output error";
    case "EFBIG":
      return "the file is too large for the file system";
    default:
      return "too many open files";
  }
}
