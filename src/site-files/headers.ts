/**
 * Response headers for the static host, from one policy: the `_headers` file (Netlify and
 * Cloudflare Pages read it from the site root) and a CloudFront response headers policy (JSON for
 * `aws cloudfront create-response-headers-policy`, see docs/deploy.md). The same parser the hosts
 * use is here too, so the browser tests serve exactly what `_headers` says.
 */

/** Security headers sent with every response. */
export function securityHeaders(csp: string): Record<string, string> {
  return {
    "Content-Security-Policy": csp,
    // Two years is what the HSTS preload list asks for; preload itself is a separate, deliberate step.
    "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Content-Type-Options": "nosniff",
    // The CSP's frame-ancestors 'none' for browsers that predate it.
    "X-Frame-Options": "DENY",
    // Stripe's frame may offer Apple Pay / Google Pay (the Payment Request API); nothing else is used.
    "Permissions-Policy":
      'payment=(self "https://js.stripe.com"), camera=(), microphone=(), geolocation=(), usb=(), browsing-topics=()',
  };
}

/** Where a signed-in donor's own details are shown: the only pages that get a window of their own. */
export const ACCOUNT_PATHS = "/account/*";

/**
 * Cross-Origin-Opener-Policy for the account pages only. It cuts the link to any window that opened
 * the page (which could otherwise send a signed-in tab to a look-alike sign-in page) and, on Android,
 * gives the page a renderer process of its own. The price is that new process on every arrival:
 * in Lighthouse's mobile runs of the home page, more main-thread work and a later first paint (a
 * cold renderer), for public pages that hold nothing of a donor's. The account pages open no
 * popups, so "same-origin" is the strict value.
 */
export const ACCOUNT_ISOLATION: Record<string, string> = { "Cross-Origin-Opener-Policy": "same-origin" };

export interface HeaderRule {
  /** A path pattern: exact, or ending in `*` (Netlify's splat). */
  pattern: string;
  headers: Record<string, string>;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";

export function headerRules(csp: string): HeaderRule[] {
  return [
    { pattern: "/*", headers: securityHeaders(csp) },
    // Content-hashed names: a changed file gets a new URL, so these never need revalidating.
    { pattern: "/_islands/*", headers: { "Cache-Control": IMMUTABLE } },
    { pattern: "/_assets/*", headers: { "Cache-Control": IMMUTABLE } },
    { pattern: "/_images/*", headers: { "Cache-Control": IMMUTABLE } },
    // The editor's preview bundle has a fixed address (src/bundle/island-bundle.ts PREVIEW_URL).
    { pattern: "/_preview/*", headers: { "Cache-Control": REVALIDATE } },
    // The worker must be checked on every visit or donors keep an old site (browsers cap it at 24 h anyway).
    { pattern: "/sw.js", headers: { "Cache-Control": "no-cache" } },
    {
      pattern: "/manifest.webmanifest",
      headers: { "Content-Type": "application/manifest+json", "Cache-Control": REVALIDATE },
    },
    { pattern: "/icons/*", headers: { "Cache-Control": "public, max-age=86400" } },
    { pattern: ACCOUNT_PATHS, headers: ACCOUNT_ISOLATION },
  ];
}

/** The `_headers` file (Netlify / Cloudflare Pages format): a path line, then indented `Name: value` lines. */
export function headersFile(rules: HeaderRule[]): string {
  const blocks = rules.map((rule) =>
    [rule.pattern, ...Object.entries(rule.headers).map(([name, value]) => `  ${name}: ${value}`)].join("\n"),
  );
  return blocks.join("\n") + "\n";
}

export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || line.trim().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: {} });
      continue;
    }
    const at = line.indexOf(":");
    const rule = rules.at(-1);
    if (!rule || at < 0) throw new Error(`_headers: "${line.trim()}" is not under a path or has no colon`);
    rule.headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return rules;
}

/** The headers a host applies to a path: every matching rule, later rules winning. */
export function headersFor(rules: HeaderRule[], path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of rules) {
    const matches = rule.pattern.endsWith("*") ? path.startsWith(rule.pattern.slice(0, -1)) : path === rule.pattern;
    if (matches) Object.assign(out, rule.headers);
  }
  return out;
}

/**
 * A CloudFront ResponseHeadersPolicyConfig with the same security headers. Cache-Control is not
 * part of it: on S3 it is object metadata set at upload (docs/deploy.md). With `account`, the policy
 * for the account pages' cache behaviour (ACCOUNT_PATHS): the same headers plus ACCOUNT_ISOLATION.
 */
export function cloudFrontPolicy(csp: string, { account = false } = {}): Record<string, unknown> {
  const headers = { ...securityHeaders(csp), ...(account ? ACCOUNT_ISOLATION : {}) };
  const custom = ["Permissions-Policy", ...(account ? Object.keys(ACCOUNT_ISOLATION) : [])];
  return {
    Name: account ? "nzf-account-security-headers" : "nzf-site-security-headers",
    Comment: "Generated by nzf-build (src/site-files/headers.ts); the same policy as dist/_headers.",
    SecurityHeadersConfig: {
      ContentSecurityPolicy: { ContentSecurityPolicy: headers["Content-Security-Policy"], Override: true },
      StrictTransportSecurity: {
        AccessControlMaxAgeSec: 63072000,
        IncludeSubdomains: true,
        Preload: false,
        Override: true,
      },
      ReferrerPolicy: { ReferrerPolicy: headers["Referrer-Policy"], Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: "DENY", Override: true },
    },
    CustomHeadersConfig: {
      Quantity: custom.length,
      Items: custom.map((header) => ({ Header: header, Value: headers[header], Override: true })),
    },
  };
}
