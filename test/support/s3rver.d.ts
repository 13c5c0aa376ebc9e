/** The part of s3rver (a local S3 API server, tests only) that the tests use. */
declare module "s3rver" {
  import type { AddressInfo } from "node:net";
  export default class S3rver {
    constructor(options: { port?: number; address?: string; directory: string; silent?: boolean });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    /** Where s3rver keeps buckets and objects (its filesystem store). */
    store: {
      getResourcePath(bucket: string, key: string, resource: "object" | "object.md5" | "metadata.json"): string;
    };
  }
}
