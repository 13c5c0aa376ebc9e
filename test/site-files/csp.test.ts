/** The Content-Security-Policy builder and the inline-code hashing. */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { contentSecurityPolicy, inlineHashes, sha256Source } from "../../src/site-files/csp.js";
import { headersFile, parseHeadersFile, headersFor, headerRules } from "../../src/site-files/headers.js";

const directive = (csp: string, name: string) =>
  csp
    .split("; ")
    .find((d) => d.startsWith(name + " "))
    ?.split(" ")
    .slice(1) ?? [];

describe("contentSecurityPolicy", () => {
  it("allows exactly PayPal's SDK hosts, and only in a build with a PayPal client ID", () => {
    const PAYPAL = ["https://*.paypal.com", "https://*.paypalobjects.com"];
    const without = contentSecurityPolicy({ publicConfig: { payments: { apiUrl: "https://api.example/main" } } });
    expect(without).not.toMatch(/paypal|venmo/);
    const csp = contentSecurityPolicy({
      publicConfig: { payments: { apiUrl: "https://api.example/main", paypalClientId: "AbC-123_abcdefghijklmnop" } },
    });
    for (const name of ["script-src", "connect-src", "frame-src", "img-src"]) {
      const list = directive(csp, name);
      expect(list, name).toEqual(expect.arrayContaining(PAYPAL));
      expect(list.filter((s) => /paypal|venmo/.test(s)).sort(), name).toEqual(PAYPAL);
    }
    for (const name of ["style-src", "default-src", "form-action", "frame-ancestors"])
      expect(directive(csp, name).join(" "), name).not.toMatch(/paypal/);
    expect(directive(csp, "script-src").join(" ")).not.toMatch(/unsafe-(inline|eval)/);
  });

  it("allows Stripe, the tag manager, Prismic and Cognito in Sydney, and nothing inline for scripts", () => {
    const csp = contentSecurityPolicy();
    expect(directive(csp, "script-src")).toEqual(
      expect.arrayContaining([
        "'self'",
        "https://js.stripe.com",
        "https://*.googletagmanager.com",
        "https://static.cdn.prismic.io",
      ]),
    );
    expect(directive(csp, "script-src").join(" ")).not.toMatch(/unsafe-(inline|eval)/);
    expect(directive(csp, "connect-src")).toEqual(
      expect.arrayContaining([
        "https://api.stripe.com",
        "https://cognito-idp.ap-southeast-2.amazonaws.com",
        "https://*.prismic.io",
        "https://*.cdn.prismic.io",
      ]),
    );
    expect(directive(csp, "frame-src")).toEqual(
      expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]),
    );
    expect(directive(csp, "frame-ancestors")).toEqual(["'none'"]);
    expect(directive(csp, "object-src")).toEqual(["'none'"]);
  });

  it("adds the payments API origin and a custom user pool endpoint from the public configuration", () => {
    const csp = contentSecurityPolicy({
      publicConfig: {
        payments: { apiUrl: "https://abc123.execute-api.ap-southeast-2.amazonaws.com/main" },
        auth: { region: "ap-southeast-2", userPoolEndpoint: "http://127.0.0.1:9229/" },
      },
    });
    const connect = directive(csp, "connect-src");
    expect(connect).toContain("https://abc123.execute-api.ap-southeast-2.amazonaws.com");
    expect(connect).toContain("http://127.0.0.1:9229");
    expect(connect).not.toContain("https://cognito-idp.ap-southeast-2.amazonaws.com");
  });

  it("hashes executable inline scripts and styles, never JSON data blocks", () => {
    const code = "console.log(1)";
    const expected = `'sha256-${createHash("sha256").update(code).digest("base64")}'`;
    const hashes = inlineHashes([
      `<script>${code}</script><script type="application/json">{"a":1}</script><script type="application/ld+json">{}</script><script type="module" src="/x.js"></script><style>p{}</style>`,
    ]);
    expect(hashes.scripts).toEqual([expected]);
    expect(hashes.styles).toEqual([sha256Source("p{}")]);
    const csp = contentSecurityPolicy({ scriptHashes: hashes.scripts, styleHashes: hashes.styles });
    expect(directive(csp, "script-src")).toContain(expected);
    expect(directive(csp, "style-src")).toContain(sha256Source("p{}"));
  });

  it("finds elements in any letter case, hashes each source once, and takes no <style> inside a script's text for an element", () => {
    const script = `document.body.append("<style>b{}</style>")`;
    const hashes = inlineHashes([
      `<SCRIPT>${script}</Script><Style media="print">i{}</STYLE>`,
      `<script>${script}</script>`,
    ]);
    expect(hashes.scripts).toEqual([sha256Source(script)]);
    // The browser runs the script; it never applies "b{}" as a stylesheet, so only "i{}" is a style.
    expect(hashes.styles).toEqual([sha256Source("i{}")]);
    // Unclosed elements hide nothing: no hash is made up for them.
    expect(inlineHashes(["<script>never closed", "<style>p{}"])).toEqual({ scripts: [], styles: [] });
  });

  it("round-trips through the _headers format", () => {
    const csp = contentSecurityPolicy();
    const rules = headerRules(csp);
    expect(parseHeadersFile(headersFile(rules))).toEqual(rules);
    expect(headersFor(rules, "/")["Content-Security-Policy"]).toBe(csp);
    expect(headersFor(rules, "/_assets/site.css")["Cache-Control"]).toBe("public, max-age=31536000, immutable");
  });

  it("lets the preview reach a custom PRISMIC_ENDPOINT, and adds nothing for Prismic's own hosts", () => {
    const connect = (previewEndpoint?: string) =>
      directive(contentSecurityPolicy({ previewEndpoint }), "connect-src") ?? [];
    expect(connect("https://content-proxy.example.org/api/v2")).toContain("https://content-proxy.example.org");
    expect(connect("http://127.0.0.1:4567/api/v2")).toContain("http://127.0.0.1:4567");
    expect(connect("https://nzf2020.cdn.prismic.io/api/v2")).toEqual(connect(undefined));
    expect(connect("not a url")).toEqual(connect(undefined));
  });
});
