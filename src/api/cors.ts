/**
 * CORS as the contract says: only the site's origin, never "*"; a preflight from another origin is
 * 403 without Access-Control-Allow-Origin. Local runs (watch mode, tests) allow loopback origins
 * unless told the site's exact origin.
 */
import { NzfError } from "../core/errors.js";

const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

/** A site on this machine (watch mode, tests): allowed unless the site's exact origin is given. */
export function isLoopbackOrigin(origin: string): boolean {
  return LOOPBACK_ORIGIN.test(origin);
}

export interface CorsPolicy {
  allows(origin: string | undefined): boolean;
  /** Watch mode learns the site's origin once its server listens. */
  set(origins: string[] | "loopback"): void;
}

export function corsPolicy(origins: string[] | "loopback"): CorsPolicy {
  let current = check(origins);
  return {
    allows: (origin) =>
      origin !== undefined && (current === "loopback" ? LOOPBACK_ORIGIN.test(origin) : current.includes(origin)),
    set(next) {
      current = check(next);
    },
  };
}

function check(origins: string[] | "loopback"): string[] | "loopback" {
  if (origins !== "loopback" && origins.includes("*"))
    throw new NzfError("API_CONFIG_INVALID", 'The payments API does not allow CORS from any origin ("*").', {
      subject: "NZF_API_ALLOWED_ORIGINS",
      hint: "Give the site's origin, e.g. https://nzf.org.au.",
    });
  return origins === "loopback" ? origins : [...origins];
}

export const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Methods": "GET, POST, PATCH, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Idempotency-Key, Donation-Key",
  "Access-Control-Max-Age": "600",
};

export const EXPOSED_HEADERS = "Idempotent-Replayed, Retry-After";
