/**
 * Problems that do not stop a build are printed, never swallowed: each as `[CODE] message` through
 * the logger, then each code's hint once (ten unsafe links need one explanation, not ten).
 * In CI (the `CI` variable set, as every CI service does) a source problem the build would only
 * warn about at a desk stops the build instead, so it is never deployed unseen.
 */
import { ERROR_CATALOGUE, type ErrorCode } from "./errors.js";
import type { LogLabel, Logger } from "./logger.js";

export interface BuildWarning {
  code: ErrorCode;
  message: string;
}

export function reportWarnings(logger: Logger, label: LogLabel, warnings: readonly BuildWarning[]): void {
  if (!warnings.length) return;
  for (const warning of warnings) logger.warn(label, `[${warning.code}] ${warning.message}`);
  for (const code of new Set(warnings.map((w) => w.code)))
    logger.warn(label, `  hint (${code}): ${ERROR_CATALOGUE[code].hint}`);
}

/** Whether this process runs in CI: `CI` set to anything but an empty string, 0 or false. */
export function isCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}
