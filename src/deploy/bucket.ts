/**
 * The S3 side of a deploy: what the bucket holds (each object's hash from its metadata), uploads
 * with their headers, the retirement mark, deletions. Credentials come from the SDK's standard chain.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import pLimit from "p-limit";
import { DEFAULT_DEPLOY_DEADLINE_MS, type DeploySettings } from "./settings.js";
import { HASH_METADATA, RETIRED_METADATA, type RemoteObject, type Upload } from "./plan.js";

// Head requests are small: many at once. Uploads carry bodies: fewer.
const HEAD_CONCURRENCY = 32;
export const UPLOAD_CONCURRENCY = 8;

/**
 * Time-outs of one request: connecting, and a socket with nothing to read for this long. The SDK
 * retries a request that timed out (3 attempts); the deploy's deadline (an abort signal) bounds
 * the whole. Without them one upload to an endpoint that accepts and never answers waits forever.
 */
export function requestTimeouts(settings: Pick<DeploySettings, "timeoutMs">) {
  return {
    connectionTimeout: 10_000,
    requestTimeout: Math.min(60_000, settings.timeoutMs ?? DEFAULT_DEPLOY_DEADLINE_MS),
  };
}

export function s3ClientFor(settings: DeploySettings): S3Client {
  return new S3Client({
    region: settings.region,
    requestHandler: requestTimeouts(settings),
    ...(settings.s3Endpoint ? { endpoint: settings.s3Endpoint, forcePathStyle: true } : {}),
    // Checksums only where S3 requires them: S3-compatible stores do not all accept the newer ones.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/**
 * An object's version as the listing and an upload's answer both give it: its ETag, which changes
 * with its bytes (an MD5 for a single upload, another unique tag under KMS encryption or for a
 * multipart upload). Its metadata hash follows the bytes, so a matching ETag means the same hash.
 */
const versionOf = (etag: string | undefined) => etag || undefined;

/** One object of the bucket's listing: its key, and its version (ETag) when the listing gives one. */
export interface ListedObject {
  key: string;
  version: string | undefined;
}

/** A listing read ahead of the deploy (src/deploy/webhook-deploy.ts), and when it was started. */
export interface EarlyListing {
  startedAt: number;
  objects: Promise<readonly ListedObject[]>;
}

/** The bucket's listing, page after page (1,000 keys a page). */
export async function listBucket(client: S3Client, bucket: string, signal?: AbortSignal): Promise<ListedObject[]> {
  const listed: ListedObject[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }), {
      abortSignal: signal,
    });
    for (const object of page.Contents ?? [])
      if (object.Key) listed.push({ key: object.Key, version: versionOf(object.ETag) });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return listed;
}

/**
 * Every object of the bucket with its hash and retirement mark. The listing (listBucket, or one
 * read earlier: `listed`) gives each key with its version; the hash and mark are in each object's
 * metadata, one HEAD request each, except for objects whose version is the one `known` has (the
 * last deploy from this machine, src/deploy/last-deploy.ts) and that `hashOnly` says need only
 * their hash: on a 2,000-page site a deploy of one changed page reads a handful of objects, not
 * every one. A copy that changes only the metadata keeps the ETag, so retirement marks (on files
 * the site no longer has) are always read. `known` is never trusted past the listing.
 */
export async function readBucket(
  client: S3Client,
  bucket: string,
  signal?: AbortSignal,
  known: Readonly<Record<string, RemoteObject>> = {},
  hashOnly: (key: string) => boolean = () => false,
  listed?: readonly ListedObject[],
): Promise<Map<string, RemoteObject>> {
  const objects = listed ?? (await listBucket(client, bucket, signal));
  const limit = pLimit(HEAD_CONCURRENCY);
  const read = await Promise.all(
    objects.map(({ key, version }) => {
      const recorded = Object.hasOwn(known, key) ? known[key] : undefined;
      if (version && recorded?.version === version && hashOnly(key)) return [key, recorded] as const;
      return limit(async () => {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
        const retired = head.Metadata?.[RETIRED_METADATA];
        const retiredAt = retired ? Date.parse(retired) : NaN;
        const object: RemoteObject = {
          hash: head.Metadata?.[HASH_METADATA] ?? null,
          ...(Number.isFinite(retiredAt) ? { retiredAt } : {}),
          ...(version ? { version } : {}),
        };
        return [key, object] as const;
      });
    }),
  );
  return new Map(read);
}

/** Uploads one file with its hash; answers its size and the object's new version (its ETag) when S3 gives one. */
export async function uploadFile(
  client: S3Client,
  bucket: string,
  siteDir: string,
  upload: Upload,
  signal?: AbortSignal,
): Promise<{ bytes: number; version: string | undefined }> {
  const body = await readFile(join(siteDir, upload.key));
  const answer = await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: upload.key,
      Body: body,
      ContentType: upload.contentType,
      CacheControl: upload.cacheControl,
      Metadata: { [HASH_METADATA]: upload.hash },
    }),
    { abortSignal: signal },
  );
  return { bytes: body.length, version: versionOf(answer.ETag) };
}

/** Marks a hashed file the site stopped using, keeping its bytes and headers (a copy onto itself). */
export async function markRetired(
  client: S3Client,
  bucket: string,
  key: string,
  hash: string | null,
  now: Date,
  signal?: AbortSignal,
): Promise<void> {
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
  await client.send(
    new CopyObjectCommand({
      Bucket: bucket,
      Key: key,
      CopySource: `${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`,
      MetadataDirective: "REPLACE",
      ...(head.ContentType ? { ContentType: head.ContentType } : {}),
      ...(head.CacheControl ? { CacheControl: head.CacheControl } : {}),
      Metadata: { ...(hash ? { [HASH_METADATA]: hash } : {}), [RETIRED_METADATA]: now.toISOString() },
    }),
    { abortSignal: signal },
  );
}

/** Deletes keys, 1,000 a request (S3's limit); throws when S3 reports any key it could not delete. */
export async function deleteKeys(
  client: S3Client,
  bucket: string,
  keys: string[],
  signal?: AbortSignal,
): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    const answer = await client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      { abortSignal: signal },
    );
    const failed = answer.Errors ?? [];
    if (failed.length)
      throw new Error(
        `S3 did not delete ${failed.length} objects, e.g. ${failed[0]!.Key}: ${failed[0]!.Message ?? failed[0]!.Code}`,
      );
  }
}
