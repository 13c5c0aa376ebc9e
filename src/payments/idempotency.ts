/**
 * Idempotency keys: one per attempt to give. The key stays the same while the donor retries the
 * same gift (a double click, "Try again" after a timeout or a 500, a reload of the page when the
 * attempt is kept), so the backend answers with the donation it already created instead of a
 * second one; it changes when the gift changes.
 */
import { canonicalJson } from "./canonical-json.js";

/** A random UUID v4. `crypto.randomUUID` exists only in secure contexts, so fall back to getRandomValues. */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const IDEMPOTENCY_KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AttemptKeys {
  /** The key for this body: the previous key when the body is unchanged, a new one otherwise. */
  keyFor(body: unknown): string;
  /** Forget the attempt (after a successful payment), so the next gift gets a new key. */
  reset(): void;
}

/** The last attempt, by a fingerprint of its body (not the body: it holds the donor's details). */
export interface Attempt {
  fingerprint: string;
  key: string;
}

/** Where the last attempt outlives the page (the browser's sessionStorage: a reload keeps it). */
export interface AttemptStore {
  load(): Attempt | null;
  save(attempt: Attempt | null): void;
}

export function createAttemptKeys(
  generate: () => string = newIdempotencyKey,
  store: AttemptStore = { load: () => null, save: () => undefined },
): AttemptKeys {
  let last = store.load();
  return {
    keyFor(body) {
      const fingerprint = fingerprintOf(canonicalJson(body));
      if (!last || last.fingerprint !== fingerprint) {
        last = { fingerprint, key: generate() };
        store.save(last);
      }
      return last.key;
    },
    reset() {
      last = null;
      store.save(null);
    },
  };
}

/** A 53-bit hash of the text (cyrb53), in base 36: equal bodies, equal fingerprints. */
export function fingerprintOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
