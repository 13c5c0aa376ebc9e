/**
 * The Content-Security-Policy: exactly the origins the site loads from, and hashes for inline code
 * that cannot be moved to a file. Every entry says who needs it, so removing a feature shows which
 * line to delete.
 *
 * - Stripe (card payments on /pay/*): Stripe's documented policy (js.stripe.com script and frames,
 *   api.stripe.com calls, hooks.stripe.com 3-D Secure frames).
 * - Google Tag Manager GTM-55LSDKV5 with GA4 behind it: Google's documented policy for GTM + GA4.
 * - Prismic (editor previews only): the API and CDN, images, the toolbar's static host and frames.
 * - Cognito (sign-in on /account/): the user pool (cognito-idp) and identity pool (cognito-identity)
 *   of the configured region, or a custom endpoint (cognito-local in development); the hosted
 *   sign-in domain's token endpoint when one is configured.
 * - The payments API: its origin from the build's public configuration.
 * - PayPal (only when NZF_PAYPAL_CLIENT_ID is set): PayPal's documented policy for the JavaScript
 *   SDK (developer.paypal.com/sdk/js/best-practices): *.paypal.com and *.paypalobjects.com for
 *   scripts, calls, frames and images. Not *.venmo.com (Venmo is for US buyers; the SDK is loaded
 *   with Venmo disabled) and not 'unsafe-inline' (a static site cannot hand out nonces, and the
 *   inline script hashes would make a browser ignore it anyway).
 */
import { createHash } from "node:crypto";

export interface CspInput {
  /** Public build configuration (`deps.publicConfig`): `auth` and `payments` entries when configured. */
  publicConfig?: Record<string, unknown>;
  /** sha256 sources of inline `<script>` code that must run (never JSON data blocks). */
  scriptHashes?: string[];
  /** sha256 sources of inline `<style>` elements (the preview dialogs render one). */
  styleHashes?: string[];
  /**
   * A custom Prismic document API endpoint (PRISMIC_ENDPOINT: a proxy, a local stub). The editor
   * preview calls it from the browser, so its origin joins connect-src; Prismic's own hosts are
   * there already.
   */
  previewEndpoint?: string;
}

/** The origin of a custom preview endpoint, or undefined (none, Prismic's own host, or not a URL). */
function previewOrigin(endpoint: string | undefined): string | undefined {
  if (!endpoint) return undefined;
  try {
    const url = new URL(endpoint);
    if (url.protocol === "https:" && /(^|\.)prismic\.io$/.test(url.hostname)) return undefined;
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const STRIPE = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
};
const PAYPAL = ["https://*.paypal.com", "https://*.paypalobjects.com"];
const GTM = {
  script: ["https://*.googletagmanager.com"],
  img: ["https://*.google-analytics.com", "https://*.googletagmanager.com"],
  connect: ["https://*.google-analytics.com", "https://*.analytics.google.com", "https://*.googletagmanager.com"],
  frame: ["https://*.googletagmanager.com"],
};
const PRISMIC = {
  script: ["https://static.cdn.prismic.io"],
  connect: ["https://*.prismic.io", "https://*.cdn.prismic.io"],
  img: ["https://images.prismic.io", "https://*.prismic.io"],
  frame: ["https://*.prismic.io"],
};

export function sha256Source(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

function originOf(value: unknown): string | null {
  if (typeof value !== "string" || !value) return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
}

/** Cognito endpoints: the configured region (Sydney by default), or the custom endpoint. */
export function cognitoOrigins(publicConfig: Record<string, unknown> = {}): string[] {
  const auth = record(publicConfig.auth);
  // The hosted sign-in's token endpoint (NZF_COGNITO_HOSTED_DOMAIN): Amplify calls it over https.
  const hosted =
    typeof auth.hostedDomain === "string" && /^[a-z0-9.-]+(:\d+)?$/i.test(auth.hostedDomain)
      ? [`https://${auth.hostedDomain}`]
      : [];
  const custom = originOf(auth.userPoolEndpoint);
  if (custom) return [custom, ...hosted];
  const region = typeof auth.region === "string" && /^[a-z0-9-]+$/.test(auth.region) ? auth.region : "ap-southeast-2";
  return [`https://cognito-idp.${region}.amazonaws.com`, `https://cognito-identity.${region}.amazonaws.com`, ...hosted];
}

/** The account GraphQL API (auth.accountApiUrl), when configured. */
export function accountApiOrigin(publicConfig: Record<string, unknown> = {}): string | null {
  return originOf(record(publicConfig.auth).accountApiUrl);
}

export function paymentsOrigin(publicConfig: Record<string, unknown> = {}): string | null {
  return originOf(record(publicConfig.payments).apiUrl);
}

/** PayPal's hosts when the build offers PayPal (a client ID in the payments configuration), else none. */
export function paypalSources(publicConfig: Record<string, unknown> = {}): string[] {
  const id = record(publicConfig.payments).paypalClientId;
  return typeof id === "string" && id !== "" ? PAYPAL : [];
}

const unique = (list: (string | null)[]) => [...new Set(list.filter((s): s is string => Boolean(s)))];

export function cspDirectives(input: CspInput = {}): [string, string[]][] {
  const publicConfig = input.publicConfig ?? {};
  const paypal = paypalSources(publicConfig);
  return [
    ["default-src", ["'self'"]],
    [
      "script-src",
      unique([
        "'self'",
        ...(input.scriptHashes ?? []).sort(),
        ...STRIPE.script,
        ...paypal,
        ...GTM.script,
        ...PRISMIC.script,
      ]),
    ],
    ["style-src", unique(["'self'", ...(input.styleHashes ?? []).sort()])],
    // Style attributes: the tag manager's no-JavaScript iframe carries one, and scripts that insert
    // elements of their own (Stripe.js's payment overlays, tags in the container) set them. Attribute
    // styles cannot run code; allowing them does not weaken script protection.
    ["style-src-attr", ["'unsafe-inline'"]],
    ["img-src", unique(["'self'", "data:", ...paypal, ...PRISMIC.img, ...GTM.img])],
    ["font-src", ["'self'"]],
    [
      "connect-src",
      unique([
        "'self'",
        ...STRIPE.connect,
        ...cognitoOrigins(publicConfig),
        paymentsOrigin(publicConfig),
        ...paypal,
        accountApiOrigin(publicConfig),
        ...PRISMIC.connect,
        previewOrigin(input.previewEndpoint) ?? null,
        ...GTM.connect,
      ]),
    ],
    ["frame-src", unique([...STRIPE.frame, ...paypal, ...PRISMIC.frame, ...GTM.frame])],
    ["worker-src", ["'self'"]],
    ["manifest-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
  ];
}

export function contentSecurityPolicy(input: CspInput = {}): string {
  return cspDirectives(input)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/**
 * Hashes of the inline code in built HTML: `<script>` elements without `src` that a browser would
 * execute (JSON and JSON-LD data blocks are not executed and need none) and `<style>` elements.
 */
export function inlineHashes(htmlFiles: string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const html of htmlFiles) {
    // One pass for both elements (every page is scanned as it renders), and a <style> written
    // inside a script's text is not taken for an element, as a browser would not.
    for (const match of html.matchAll(INLINE_ELEMENT)) {
      const [, tag, attrs, source] = match as unknown as [string, string, string, string];
      if (tag.length === 5) {
        styles.add(hashOfSource(source));
        continue;
      }
      if (/\bsrc\s*=/.test(attrs)) continue;
      const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
      if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
      scripts.add(hashOfSource(source));
    }
  }
  return { scripts: [...scripts].sort(), styles: [...styles].sort() };
}

const INLINE_ELEMENT = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1>/gi;

/** The same few inline sources recur on thousands of pages: each is hashed once per thread. */
const hashBySource = new Map<string, string>();
function hashOfSource(source: string): string {
  let hash = hashBySource.get(source);
  if (hash === undefined) {
    if (hashBySource.size >= 1000) hashBySource.clear();
    hash = sha256Source(source);
    hashBySource.set(source, hash);
  }
  return hash;
}
