import type { BuildConfig } from "../core/config.js";
import type { Logger } from "../core/logger.js";
import { NzfError } from "../core/errors.js";

/** Watch mode: see issue 8. Until it lands, --watch says so instead of silently building once. */
export async function runWatch(_config: BuildConfig, _options: { logger: Logger; port?: number }): Promise<void> {
  throw new NzfError("CONFIG_INVALID", "--watch is not available yet in this version of nzf-build", { hint: "Run `nzf-build` after each change for now." });
}
