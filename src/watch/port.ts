/**
 * The port watch mode serves on: the one asked for when it is free, else the next free one, said in
 * the terminal the way Astro and Vite do, instead of building first and then failing with a raw
 * EADDRINUSE. Port 0 asks the system for any free port.
 */
import { createServer } from "node:net";
import type { Logger } from "../core/logger.js";
import { NzfError } from "../core/errors.js";

/** How many ports after the one asked for are tried before giving up. */
export const PORT_TRIES = 50;

/** Listens on `port` and closes again: the port that was bound, or null when it is in use. */
function probe(port: number, host: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") resolve(null);
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** A free port at or after `preferred` on `host` (any free port for 0), logging when it is not `preferred`. */
export async function findFreePort(preferred: number, host: string, logger: Logger): Promise<number> {
  // The CLI refuses a bad --port before building; this guards other callers.
  if (!Number.isInteger(preferred) || preferred < 0 || preferred > 65535) {
    throw new NzfError("CONFIG_INVALID", `--port must be a whole number from 0 to 65535, got "${preferred}"`, {
      subject: "--port",
    });
  }
  const last = preferred === 0 ? 0 : Math.min(65535, preferred + PORT_TRIES - 1);
  for (let port = preferred; port <= last; port++) {
    let bound: number | null;
    try {
      bound = await probe(port, host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new NzfError(
        "WATCH_PORT_UNAVAILABLE",
        `Cannot listen on ${host}:${port} (${code ?? (error as Error).message})`,
        {
          subject: "--port",
          cause: error,
          hint:
            code === "EACCES"
              ? "Ports below 1024 need administrator rights: use a port such as 4321 (--port 4321)."
              : undefined,
        },
      );
    }
    if (bound !== null) {
      if (port !== preferred) logger.info("watch", `port ${preferred} is in use, using ${port}`);
      return bound;
    }
  }
  throw new NzfError("WATCH_PORT_UNAVAILABLE", `Ports ${preferred} to ${last} on ${host} are all in use`, {
    subject: "--port",
  });
}

/** Whether an error is a listen() that found its port taken (between the check and the listen). */
export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE";
}
