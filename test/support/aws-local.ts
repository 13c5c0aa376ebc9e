/**
 * A real S3 API on loopback (s3rver, in this process) and a stand-in for CloudFront's API that
 * records each CreateInvalidation the SDK sends, for the deploy tests and the benchmark. A proxy
 * in front of S3 can refuse uploads of chosen keys, as a failing network or S3 outage would.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AddressInfo } from "node:net";
import S3rver from "s3rver";
import crypto, { createHash } from "node:crypto";

export interface LocalS3 {
  /** The S3 endpoint (through the fault proxy). */
  endpoint: string;
  /** Uploads (PUT) of keys matching this are answered 500, until set to null. */
  failUploads: RegExp | null;
  /** Every request that went through: `METHOD /bucket/key`. */
  requests: string[];
  createBucket(name: string): Promise<void>;
  /**
   * Writes objects into a bucket as s3rver's store keeps them (the object, its MD5 and its metadata,
   * at the paths the store names), without an HTTP request each: for a bucket of thousands that only
   * needs to be there (a listing test): 2,050 signed PUTs through the proxy took 6-9 s of CPU (load
   * 15-19), these writes 1.4 s. Not in `requests`.
   */
  seed(bucket: string, objects: { key: string; body: string; metadata?: Record<string, string> }[]): Promise<void>;
  stop(): Promise<void>;
}

export interface Invalidation {
  distribution: string;
  paths: string[];
  reference: string;
}

export interface LocalCloudFront {
  endpoint: string;
  /**
   * What points the CloudFront client at this server: the AWS SDK's own per-service endpoint
   * variable (nzf-build has no setting for it: CloudFront has no stand-in in production).
   */
  env: { AWS_ENDPOINT_URL_CLOUDFRONT: string };
  invalidations: Invalidation[];
  stop(): Promise<void>;
}

/** Credentials for the SDK's standard chain (s3rver accepts these). */
export const LOCAL_AWS_ENV = {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req
      .setEncoding("utf8")
      .on("data", (c: string) => (text += c))
      .on("end", () => resolve(text))
      .on("error", reject);
  });
}

/**
 * s3rver makes ListObjectsV2's continuation tokens with single DES, which OpenSSL 3 (Node 17 and
 * newer) keeps in its legacy provider: every listing of more than 1,000 objects answered 500 (the
 * publish bench's 2,050-object bucket could not be deployed). Triple DES with one key three times
 * is single DES, so s3rver's tokens are made as before, by a cipher OpenSSL 3 has. Only "des" is
 * changed, only in the test process that runs s3rver.
 */
function letS3rverMakeContinuationTokens(): void {
  const { createCipheriv, createDecipheriv } = crypto;
  if ((createCipheriv as { desFromTripleDes?: true }).desFromTripleDes) return;
  const asTripleDes = (key: crypto.CipherKey) => Buffer.concat(Array(3).fill(Buffer.from(key as Buffer)));
  const cipher = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: never) =>
    algorithm === "des"
      ? createCipheriv("des-ede3-cbc", asTripleDes(key), iv, options)
      : createCipheriv(algorithm, key, iv, options)) as typeof createCipheriv;
  const decipher = ((algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null, options?: never) =>
    algorithm === "des"
      ? createDecipheriv("des-ede3-cbc", asTripleDes(key), iv, options)
      : createDecipheriv(algorithm, key, iv, options)) as typeof createDecipheriv;
  Object.assign(cipher, { desFromTripleDes: true });
  crypto.createCipheriv = cipher;
  crypto.createDecipheriv = decipher;
}

export async function startLocalS3(): Promise<LocalS3> {
  letS3rverMakeContinuationTokens();
  const directory = await mkdtemp(join(tmpdir(), "nzf-s3-"));
  const s3rver = new S3rver({ port: 0, address: "127.0.0.1", directory, silent: true });
  const { port: s3Port } = (await s3rver.run()) as AddressInfo;
  const local: LocalS3 = {
    endpoint: "",
    failUploads: null,
    requests: [],
    async createBucket(name) {
      await new Promise<void>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port: s3Port, method: "PUT", path: `/${name}` }, (res) => {
          res.resume();
          if (res.statusCode === 200) resolve();
          else reject(new Error(`creating bucket ${name}: HTTP ${res.statusCode}`));
        });
        req.on("error", reject).end();
      });
    },
    async seed(bucket, objects) {
      const store = s3rver.store;
      const folders = new Set(objects.map(({ key }) => dirname(store.getResourcePath(bucket, key, "object"))));
      await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
      await Promise.all(
        objects.map(({ key, body, metadata = {} }) =>
          Promise.all([
            writeFile(store.getResourcePath(bucket, key, "object"), body),
            writeFile(store.getResourcePath(bucket, key, "object.md5"), createHash("md5").update(body).digest("hex")),
            writeFile(
              store.getResourcePath(bucket, key, "metadata.json"),
              JSON.stringify({
                "content-type": "binary/octet-stream",
                ...Object.fromEntries(Object.entries(metadata).map(([name, value]) => [`x-amz-meta-${name}`, value])),
              }),
            ),
          ]),
        ),
      );
    },
    async stop() {
      await close(proxy);
      await s3rver.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
  const proxy = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    local.requests.push(`${req.method} ${path}`);
    if (req.method === "PUT" && local.failUploads?.test(path)) {
      req.resume();
      res
        .writeHead(500, { "content-type": "application/xml" })
        .end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>injected fault</Message></Error>',
        );
      return;
    }
    const upstream = request(
      { host: "127.0.0.1", port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  local.endpoint = `http://127.0.0.1:${await listen(proxy)}`;
  return local;
}

export async function startLocalCloudFront(): Promise<LocalCloudFront> {
  const invalidations: Invalidation[] = [];
  let next = 1;
  const server = createServer(async (req, res) => {
    const match = /^\/2020-05-31\/distribution\/([^/]+)\/invalidation$/.exec(req.url ?? "");
    const text = await body(req);
    if (req.method !== "POST" || !match) {
      res
        .writeHead(404, { "content-type": "text/xml" })
        .end("<ErrorResponse><Error><Code>NoSuchResource</Code></Error></ErrorResponse>");
      return;
    }
    const paths = [...text.matchAll(/<Path>([^<]*)<\/Path>/g)].map((m) => m[1]!);
    const reference = /<CallerReference>([^<]*)<\/CallerReference>/.exec(text)?.[1] ?? "";
    invalidations.push({ distribution: match[1]!, paths, reference });
    const id = `I${String(next++).padStart(12, "0")}`;
    const items = paths.map((p) => `<Path>${p}</Path>`).join("");
    res
      .writeHead(201, {
        "content-type": "text/xml",
        location: `https://cloudfront.amazonaws.com/2020-05-31/distribution/${match[1]}/invalidation/${id}`,
      })
      .end(
        `<?xml version="1.0"?><Invalidation xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Id>${id}</Id><Status>InProgress</Status><CreateTime>${new Date().toISOString()}</CreateTime><InvalidationBatch><Paths><Quantity>${paths.length}</Quantity><Items>${items}</Items></Paths><CallerReference>${reference}</CallerReference></InvalidationBatch></Invalidation>`,
      );
  });
  const endpoint = `http://127.0.0.1:${await listen(server)}`;
  return { endpoint, env: { AWS_ENDPOINT_URL_CLOUDFRONT: endpoint }, invalidations, stop: () => close(server) };
}
