/**
 * The CloudFront Function, run as CloudFront runs it: its code alone in a fresh JavaScript context
 * (no require, no process), `handler(event)` called with viewer-request events, checked against
 * the site's URL rules. The code must parse as ES5.1 (what cloudfront-js-1.0 accepts).
 */
import { describe, expect, it } from "vitest";
import { createContext, runInContext } from "node:vm";
import { parse } from "acorn";
import { edgeFunctionCode } from "../../src/deploy/edge-function.js";
import { cloudFormationTemplate, deployPolicy } from "../../src/deploy/edge-files.js";
import { REDIRECTS } from "../../src/content/routes.js";

type Query = Record<string, { value: string; multiValue?: { value: string }[] }>;
interface Answer {
  uri?: string;
  statusCode?: number;
  headers?: Record<string, { value: string }>;
}

const code = edgeFunctionCode();
const context = createContext({});
runInContext(code, context);

function request(uri: string, querystring: Query = {}): Answer {
  const event = {
    version: "1.0",
    context: { eventType: "viewer-request" },
    viewer: { ip: "192.0.2.1" },
    request: { method: "GET", uri, querystring, headers: {}, cookies: {} },
  };
  return (context.handler as (e: typeof event) => Answer)(event);
}

describe("the CloudFront Function (viewer request)", () => {
  it("is plain ES5.1 and stays far below CloudFront's 10 KB limit", () => {
    expect(() => parse(code, { ecmaVersion: 5 })).not.toThrow();
    expect(Buffer.byteLength(code)).toBeLessThan(10_240);
  });

  it("serves /path/ from /path/index.html, and / from /index.html", () => {
    expect(request("/about/")).toMatchObject({ uri: "/about/index.html" });
    expect(request("/pay/zakat/")).toMatchObject({ uri: "/pay/zakat/index.html" });
    expect(request("/")).toMatchObject({ uri: "/index.html" });
  });

  it("adds the trailing slash with a 301, keeping the query string", () => {
    expect(request("/about")).toMatchObject({ statusCode: 301, headers: { location: { value: "/about/" } } });
    expect(request("/blog/what-is-nisab", { utm_source: { value: "mail" } })).toMatchObject({
      statusCode: 301,
      headers: { location: { value: "/blog/what-is-nisab/?utm_source=mail" } },
    });
    const multi = request("/pay/zakat", {
      a: { value: "1", multiValue: [{ value: "1" }, { value: "2" }] },
      flag: { value: "" },
    });
    expect(multi.headers!.location!.value).toBe("/pay/zakat/?a=1&a=2&flag");
  });

  it("passes paths ending in .html .json .js .map .txt .xml .pdf unchanged (they name files)", () => {
    for (const uri of [
      "/404.html",
      "/data/prices.json",
      "/sw.js",
      "/_islands/a-1.js.map",
      "/robots.txt",
      "/sitemap.xml",
      "/reports/annual.pdf",
      "/about/index.html",
    ]) {
      const answer = request(uri);
      expect(answer.statusCode, uri).toBeUndefined();
      expect(answer.uri, uri).toBe(uri);
    }
  });

  it("passes the site's other files unchanged (stylesheets, images, icons, the manifest)", () => {
    for (const uri of [
      "/_assets/site-3f2a.css",
      "/_images/hero-640.webp",
      "/icons/icon-192.png",
      "/favicon.ico",
      "/manifest.webmanifest",
    ])
      expect(request(uri).uri, uri).toBe(uri);
  });

  it("redirects /pay/tainted_wealth, with or without the slash, to /pay/tainted-wealth/", () => {
    for (const uri of ["/pay/tainted_wealth", "/pay/tainted_wealth/"]) {
      expect(request(uri), uri).toMatchObject({
        statusCode: 301,
        headers: { location: { value: "/pay/tainted-wealth/" } },
      });
    }
    expect(request("/pay/tainted_wealth", { amount: { value: "50" } }).headers!.location!.value).toBe(
      "/pay/tainted-wealth/?amount=50",
    );
    expect(request("/pay/tainted-wealth/")).toMatchObject({ uri: "/pay/tainted-wealth/index.html" });
    // Every redirect of the site is there.
    for (const [from, to] of Object.entries(REDIRECTS)) expect(request(from).headers?.location?.value).toBe(to);
  });
});

describe("the infrastructure files", () => {
  it("give the deploy only what it does: list, read, write and delete the site's objects, invalidate", () => {
    const policy = deployPolicy("arn:b", "arn:b/*", "arn:d") as { Statement: { Action: string[]; Resource: string }[] };
    expect(policy.Statement.flatMap((s) => s.Action).sort()).toEqual([
      "cloudfront:CreateInvalidation",
      "s3:DeleteObject",
      "s3:GetObject",
      "s3:ListBucket",
      "s3:PutObject",
    ]);
    expect(policy.Statement.map((s) => s.Resource)).toEqual(["arn:b", "arn:b/*", "arn:d"]);
  });

  it("the CloudFormation template puts the function and the headers policies on the distribution", () => {
    const template = cloudFormationTemplate("default-src 'self'") as {
      Resources: Record<string, { Type: string; Properties: Record<string, any> }>;
    };
    const r = template.Resources;
    expect(r.UrlRules!.Properties.FunctionCode).toBe(code);
    const config = r.Distribution!.Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.FunctionAssociations[0].EventType).toBe("viewer-request");
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: "SiteHeaders" });
    expect(config.CacheBehaviors[0]).toMatchObject({
      PathPattern: "/account/*",
      ResponseHeadersPolicyId: { Ref: "AccountHeaders" },
    });
    expect(
      r.SiteHeaders!.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
        .ContentSecurityPolicy,
    ).toBe("default-src 'self'");
    expect(JSON.stringify(r.SiteHeaders)).not.toContain("Quantity");
    expect(r.Bucket!.Properties.PublicAccessBlockConfiguration.RestrictPublicBuckets).toBe(true);
  });
});
