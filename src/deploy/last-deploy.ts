/**
 * The record of the last deploy made from this machine: what the bucket holds once that deploy
 * finished (each object's hash and retirement mark, as the bucket's metadata says), written after
 * every successful deploy into the work folder (`.nzf-cache/deploy/last-deploy.json`). It lets
 * `nzf-build deploy --dry-run` show a plan with no network, bucket or credentials. It is a
 * convenience, never the truth: a real deploy always reads the bucket, and a deploy from another
 * machine (CI) or by hand is not in it, which the plan says.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { mkdir } from "node:fs/promises";
import { writeFileAtomic } from "../core/fs.js";
import type { DeployPlan, RemoteObject } from "./plan.js";
import type { DeployedSite } from "./site-hashes.js";

export interface DeployRecord {
  version: 1;
  bucket: string;
  region: string;
  distribution?: string;
  /** ISO time the deploy finished. */
  deployedAt: string;
  /** The version of the site it sent: the next deploy reads only the files changed since (./site-hashes.ts). */
  site?: DeployedSite;
  objects: Record<string, RemoteObject>;
}

/** Where the work folder keeps it, beside the edge files the build writes. */
export function deployRecordPath(workDir: string): string {
  return join(workDir, "deploy", "last-deploy.json");
}

/** What the bucket holds after `plan` was carried out on `remote` at `now`. */
export function bucketAfter(
  plan: DeployPlan,
  remote: Map<string, RemoteObject>,
  now: number,
  uploadedVersions: ReadonlyMap<string, string> = new Map(),
): Record<string, RemoteObject> {
  const after = new Map(remote);
  for (const upload of plan.uploads) {
    const version = uploadedVersions.get(upload.key);
    after.set(upload.key, { hash: upload.hash, ...(version ? { version } : {}) });
  }
  for (const key of plan.retire) after.set(key, { hash: remote.get(key)?.hash ?? null, retiredAt: now });
  for (const key of plan.deletions) after.delete(key);
  return Object.fromEntries([...after].sort(([a], [b]) => a.localeCompare(b)));
}

export async function writeDeployRecord(file: string, record: DeployRecord): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(record, null, 1) + "\n");
}

/** The record, or null when there is none; a record that cannot be read is `{ unreadable }`. */
export async function readDeployRecord(file: string): Promise<DeployRecord | null | { unreadable: string }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    return { unreadable: (error as Error).message };
  }
  try {
    const record = JSON.parse(text) as Partial<DeployRecord>;
    const objects = record.objects;
    if (
      record.version !== 1 ||
      typeof record.bucket !== "string" ||
      typeof record.region !== "string" ||
      typeof record.deployedAt !== "string" ||
      (record.site !== undefined && (typeof record.site?.dir !== "string" || typeof record.site.scheme !== "string")) ||
      !objects ||
      typeof objects !== "object" ||
      Object.values(objects).some(
        (o) =>
          !o ||
          (o.hash !== null && typeof o.hash !== "string") ||
          (o.retiredAt !== undefined && typeof o.retiredAt !== "number") ||
          (o.version !== undefined && typeof o.version !== "string"),
      )
    )
      return { unreadable: "not a deploy record of this version of nzf-build" };
    return record as DeployRecord;
  } catch (error) {
    return { unreadable: (error as Error).message };
  }
}

/** The record's objects as the plan reads a bucket. */
export function recordedBucket(record: DeployRecord): Map<string, RemoteObject> {
  return new Map(Object.entries(record.objects));
}
