/**
 * The publish bench's S3: s3rver (as test/support/aws-local.ts runs it) in a thread of its own.
 * s3rver lists a bucket by walking its folder with synchronous reads (three files an object, the
 * whole folder again for each page of 1,000 keys): in the bench's thread it blocked the build for
 * as long as a listing took, which S3, elsewhere, never does. In its own thread it still uses the
 * machine's cores, as a server on the same machine would, but not the build's event loop.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

// CommonJS, evaluated in the worker. s3rver makes its continuation tokens with single DES, which
// OpenSSL 3 no longer offers: triple DES with one key three times is the same cipher (see
// letS3rverMakeContinuationTokens in test/support/aws-local.ts, which does this for the tests).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const crypto = require("node:crypto");
const { createCipheriv, createDecipheriv } = crypto;
const triple = (key) => Buffer.concat([key, key, key].map((k) => Buffer.from(k)));
crypto.createCipheriv = (a, k, iv, o) =>
  a === "des" ? createCipheriv("des-ede3-cbc", triple(k), iv, o) : createCipheriv(a, k, iv, o);
crypto.createDecipheriv = (a, k, iv, o) =>
  a === "des" ? createDecipheriv("des-ede3-cbc", triple(k), iv, o) : createDecipheriv(a, k, iv, o);
const S3rver = require(workerData.s3rver);
const server = new S3rver({ port: 0, address: "127.0.0.1", directory: workerData.directory, silent: true });
server.run().then((address) => parentPort.postMessage({ port: address.port }));
parentPort.on("message", () => server.close().then(() => parentPort.postMessage({ stopped: true })));
`;

export interface ThreadS3 {
  endpoint: string;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3InThread(root: string): Promise<ThreadS3> {
  const directory = await mkdtemp(join(tmpdir(), "nzf-bench-s3-"));
  const s3rver = createRequire(join(root, "package.json")).resolve("s3rver");
  const worker = new Worker(WORKER, { eval: true, workerData: { s3rver, directory } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", (message: { port: number }) => resolve(message.port));
    worker.once("error", reject);
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    createBucket: (name) =>
      new Promise<void>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, method: "PUT", path: `/${name}` }, (res) => {
          res.resume();
          if (res.statusCode === 200) resolve();
          else reject(new Error(`creating bucket ${name}: HTTP ${res.statusCode}`));
        });
        req.on("error", reject).end();
      }),
    async stop() {
      await new Promise<void>((resolve) => {
        worker.once("message", () => resolve());
        worker.postMessage("stop");
      });
      await worker.terminate();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
