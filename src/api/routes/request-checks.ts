/** The checks every POST and PATCH shares, cheapest first: the key, the media type, the JSON. */
import type { Context } from "hono";
import { IDEMPOTENCY_KEY_PATTERN } from "../../payments/idempotency.js";
import { errors, type Reply } from "../errors.js";

export async function readKeyedJson(
  c: Context,
  { emptyIsObject = false } = {},
): Promise<{ ok: true; key: string; body: unknown } | { ok: false; reply: Reply }> {
  const key = c.req.header("idempotency-key");
  if (!key) return { ok: false, reply: errors.keyMissing() };
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) return { ok: false, reply: errors.keyInvalid() };
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? ""))
    return { ok: false, reply: errors.mediaType() };
  const text = await c.req.text();
  try {
    return { ok: true, key, body: JSON.parse(text === "" && emptyIsObject ? "{}" : text) };
  } catch {
    return { ok: false, reply: errors.invalidJson() };
  }
}
