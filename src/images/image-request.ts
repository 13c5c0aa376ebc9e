/**
 * One GET of an original image, with the limits content cannot move: the source policy on every URL
 * (the first and each redirect, which must stay on the same host), the addresses checked when
 * connecting (source-policy.ts, checkedLookup), a size cap, and a stop when the download is too
 * slow. node:http(s) rather than fetch: fetch cannot be told which addresses it may connect to.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { NzfError } from "../core/errors.js";
import {
  AddressRefusedError,
  checkedLookup,
  imageUrlRefusal,
  refused,
  type ImageSourcePolicy,
} from "./source-policy.js";

export interface ImageRequestLimits {
  /** Largest original accepted, in bytes. */
  maxBytes: number;
  /** After this long, a download slower than `minBytesPerSecond` on average is dropped (a tarpit). */
  graceMs: number;
  minBytesPerSecond: number;
  /** Redirects followed (on the same host only). */
  maxRedirects: number;
}

export const IMAGE_REQUEST_LIMITS: ImageRequestLimits = {
  maxBytes: 25 * 1024 * 1024,
  graceMs: 5_000,
  minBytesPerSecond: 32 * 1024,
  maxRedirects: 3,
};

/** What the server answered: the body of a 2xx, else only the status (the caller decides on retries). */
export type ImageResponse = { ok: true; bytes: Buffer } | { ok: false; status: number };

// Keep-alive agents of their own: a pooled socket was connected through checkedLookup, never
// through another part of the process's lookup.
const agents = {
  "http:": new HttpAgent({ keepAlive: true, lookup: checkedLookup } as ConstructorParameters<typeof HttpAgent>[0]),
  "https:": new HttpsAgent({ keepAlive: true, lookup: checkedLookup } as ConstructorParameters<typeof HttpsAgent>[0]),
};

/** GETs `url` under `policy`; `signal` is the caller's total time cap. */
export async function requestImage(
  url: string,
  policy: ImageSourcePolicy,
  signal: AbortSignal,
): Promise<ImageResponse> {
  let current = url;
  for (let redirects = 0; ; redirects++) {
    const why = imageUrlRefusal(current, policy);
    if (why) throw refused(url, current === url ? why : `it redirects to ${current}, and ${why}`);
    const answer = await getOnce(new URL(current), signal, IMAGE_REQUEST_LIMITS);
    if (answer.kind === "body" || answer.kind === "status") {
      return answer.kind === "body" ? { ok: true, bytes: answer.bytes } : { ok: false, status: answer.status };
    }
    const next = new URL(answer.location, current);
    if (next.host.toLowerCase() !== new URL(current).host.toLowerCase() || next.protocol !== new URL(current).protocol)
      throw refused(url, `it redirects to another host (${next.origin})`);
    if (redirects >= IMAGE_REQUEST_LIMITS.maxRedirects)
      throw refused(url, `it redirects more than ${IMAGE_REQUEST_LIMITS.maxRedirects} times`);
    current = next.toString();
  }
}

type Answer =
  | { kind: "body"; bytes: Buffer }
  | { kind: "status"; status: number }
  | { kind: "redirect"; location: string };

function getOnce(url: URL, signal: AbortSignal, limits: ImageRequestLimits): Promise<Answer> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const started = performance.now();
    let received = 0;
    let settled = false;
    const finish = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearInterval(pace);
      signal.removeEventListener("abort", onAbort);
      if (error) {
        req.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const onAbort = () =>
      finish(
        new NzfError("IMAGE_TIMEOUT", `Image ${url} took too long: the build gives an image 30 s in all`, {
          cause: signal.reason,
        }),
      );
    // A tarpit answers a byte at a time for minutes: judged on its average once the grace is over.
    const pace = setInterval(() => {
      const ms = performance.now() - started;
      if (ms >= limits.graceMs && (received * 1000) / ms < limits.minBytesPerSecond)
        finish(
          new NzfError(
            "IMAGE_TIMEOUT",
            `Image ${url} arrived too slowly: ${received} bytes in ${(ms / 1000).toFixed(1)} s (at least ${limits.minBytesPerSecond / 1024} KB/s is expected after ${limits.graceMs / 1000} s)`,
          ),
        );
    }, 250);
    const req = request(url, {
      method: "GET",
      // An address the operator listed connects without a lookup; every name goes through checkedLookup.
      agent: agents[url.protocol as "http:" | "https:"],
      headers: { accept: "image/*", "user-agent": "nzf-build" },
    });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) => {
      if (error instanceof AddressRefusedError) finish(refused(url.toString(), `its host ${error.message}`));
      else finish(error);
    });
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        return finish(null, { kind: "redirect", location: res.headers.location });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return finish(null, { kind: "status", status });
      }
      const declared = Number(res.headers["content-length"]);
      const tooLarge = () =>
        new NzfError(
          "IMAGE_TOO_LARGE",
          `Image ${url} is larger than ${limits.maxBytes / 1024 / 1024} MB${declared > limits.maxBytes ? ` (${(declared / 1024 / 1024).toFixed(1)} MB)` : ""}`,
        );
      if (declared > limits.maxBytes) return finish(tooLarge());
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > limits.maxBytes) return finish(tooLarge());
        chunks.push(chunk);
      });
      res.on("end", () => finish(null, { kind: "body", bytes: Buffer.concat(chunks) }));
      res.on("error", (error) => finish(error));
    });
    req.end();
  });
}
