/**
 * Every installed package runs on the Node the project declares (`engines.node` in package.json,
 * 20.19 and newer): a transitive dependency that moves to a newer Node (as @whatwg-node's helpers
 * did, to 22.15, under graphql-yoga) fails here, not on a donor's request in production.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/build-fixture.js";

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
}
const readJson = (file: string) => JSON.parse(readFileSync(join(PROJECT_ROOT, file), "utf8"));
const lock = readJson("package-lock.json") as { packages: Record<string, LockedPackage> };
const declared = (readJson("package.json") as { engines: { node: string } }).engines.node;

describe("dependencies' engines", () => {
  it("the project declares Node 20.19 and newer", () => {
    expect(semver.minVersion(declared)?.version).toBe("20.19.0");
  });

  it("no package in the lock file needs a newer Node than the project declares", () => {
    const lowest = semver.minVersion(declared)!.version;
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!path || !range) continue;
      if (!semver.satisfies(lowest, range, { includePrerelease: true }))
        refused.push(`${path.replace(/^.*node_modules\//, "")}@${entry.version} needs Node ${range}`);
    }
    expect(refused).toEqual([]);
  });
});
