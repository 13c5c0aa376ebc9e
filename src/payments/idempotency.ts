/**
 * Idempotency keys: one per attempt to give. The key stays the same while the donor retries the
 * same gift (a double click, "Try again" after a timeout or a 500), so the backend answers with the
 * donation it already created instead of a second one; it changes when the gift changes.
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

export function createAttemptKeys(generate: () => string = newIdempotencyKey): AttemptKeys {
  let last: { body: string; key: string } | null = null;
  return {
    keyFor(body) {
      const canonical = canonicalJson(body);
      if (!last || last.body !== canonical) last = { body: canonical, key: generate() };
      return last.key;
    },
    reset() {
      last = null;
    },
  };
}
