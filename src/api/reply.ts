/** Turns a route's `Reply` into the response, with the headers every answer carries. */
import type { Context } from "hono";
import type { Reply } from "./errors.js";

export function send(c: Context, reply: Reply & { replayed?: boolean }): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store", ...reply.headers };
  if (reply.replayed) headers["Idempotent-Replayed"] = "true";
  const payload = reply.raw ?? (reply.body === undefined ? null : JSON.stringify(reply.body));
  if (payload !== null && !headers["Content-Type"]) headers["Content-Type"] = "application/json; charset=utf-8";
  return payload === null ? c.body(null, reply.status as 200, headers) : c.body(payload, reply.status as 200, headers);
}
