/**
 * Writes the pages a render worker rendered into the new tree of the site (WorkerInit.writeTo), for
 * a build whose tree starts empty and compares no page with a published one. Synchronous, like
 * SiteOutput.put: a page is written in tens of microseconds, less than a hand-off to the thread pool.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface PageWriter {
  /** Writes the page; false when it could not (the build's thread then writes it and reports why). */
  write(file: string, html: string): boolean;
}

export function createPageWriter(dir: string): PageWriter {
  const madeDirs = new Set<string>();
  return {
    write(file, html) {
      const path = join(dir, file);
      try {
        const parent = dirname(path);
        if (!madeDirs.has(parent)) {
          mkdirSync(parent, { recursive: true });
          madeDirs.add(parent);
        }
        writeFileSync(path, html);
        return true;
      } catch {
        return false;
      }
    },
  };
}
