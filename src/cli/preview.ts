/**
 * `nzf-build preview`: serves the published site as the host does (src/server/preview-server.ts),
 * on the port rules of watch mode (src/watch/port.ts): the port asked for, else the next free one,
 * said; 0 for any. Runs until Ctrl+C.
 */
import { realpathSync } from "node:fs";
import { relative } from "node:path";
import { NzfError } from "../core/errors.js";
import type { Logger } from "../core/logger.js";
import { startPreviewServer } from "../server/preview-server.js";
import { findFreePort, isAddressInUse } from "../watch/port.js";
import type { WatchSettings } from "./settings.js";

export async function runPreview(outDir: string, settings: WatchSettings, logger: Logger): Promise<void> {
  let version: string;
  try {
    version = realpathSync(outDir);
  } catch (error) {
    throw new NzfError("PREVIEW_SITE_MISSING", `There is no published site at ${outDir} to preview.`, {
      subject: outDir,
      cause: error,
    });
  }
  let port = settings.port;
  for (let attempt = 0; ; attempt++) {
    const free = await findFreePort(port, settings.host, logger);
    try {
      const server = await startPreviewServer({ root: outDir, host: settings.host, port: free, logger });
      const shown = relative(process.cwd(), outDir) || outDir;
      logger.info(
        "preview",
        `serving ${shown} (${relative(process.cwd(), version) || version}) as S3 and CloudFront would at ${server.url}/ (Ctrl+C stops)`,
      );
      await new Promise<void>((resolve) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
      });
      await server.stop();
      return;
    } catch (error) {
      // Taken between the check and the listen: the next free one.
      if (!isAddressInUse(error) || attempt > 3 || port === 0) throw error;
      port = free + 1;
    }
  }
}
