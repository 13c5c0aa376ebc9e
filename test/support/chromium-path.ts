/**
 * Where the browser tests and the Lighthouse bench find Chromium: CHROMIUM_PATH, then a system
 * Chromium, then the headless Chromium that `npm ci` installed with @sparticuz/chromium (a registry
 * package that ships the binary, so a machine with only Node and npm runs the browser tests).
 */
import { existsSync } from "node:fs";

const SYSTEM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** A system Chromium or CHROMIUM_PATH, when present. */
export function findSystemChromium(): string | undefined {
  return [process.env.CHROMIUM_PATH, ...SYSTEM_CANDIDATES].find(
    (path): path is string => Boolean(path) && existsSync(path!),
  );
}

/**
 * A path to a Chromium that starts headless. The bundled one is unpacked into the temporary folder
 * on first use; call this once per process tree (vitest's global setup does, and hands the path to
 * the test workers in CHROMIUM_PATH) so two workers never unpack it at once.
 */
export async function resolveChromium(): Promise<string> {
  const system = findSystemChromium();
  if (system) return system;
  try {
    const { default: bundled } = await import("@sparticuz/chromium");
    return await bundled.executablePath();
  } catch (error) {
    throw new Error(
      "No Chromium found: set CHROMIUM_PATH, install a system Chromium (Debian: `apt-get install chromium`), " +
        `or run \`npm ci\` so @sparticuz/chromium is installed. Cause: ${(error as Error).message}`,
    );
  }
}
