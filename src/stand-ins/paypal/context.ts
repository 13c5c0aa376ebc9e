/** What the stand-in's parts share: its address, its clock, ids, and the webhook events they raise. */
import { randomBytes } from "node:crypto";

export interface StandInContext {
  baseUrl: string;
  now(): Date;
  emit(
    eventType: string,
    resourceType: string,
    summary: string,
    resource: Record<string, unknown>,
    resourceVersion?: string,
  ): void;
}

const ID_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";

/** PayPal-like ids: 17 upper-case letters and digits, e.g. 5O190127TN364715T. */
export function paypalId(prefix = "", length = 17): string {
  const bytes = randomBytes(length);
  let id = "";
  for (const b of bytes) id += ID_CHARS[b % ID_CHARS.length];
  return prefix + id;
}

export const link = (href: string, rel: string, method = "GET") => ({ href, rel, method });
