/**
 * The account island renders on the server (node environment, no window/document) and its HTML
 * carries no token or secret; the dist scanner finds the leaks it is meant to find.
 */
import { vi, describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import AccountIsland from "../../src/client/islands/account.js";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { findAuthSecrets } from "../../src/auth/dist-scan.js";

vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

const config = resolveAuthConfig({
  userPoolId: "ap-southeast-2_AbC123xyz",
  userPoolClientId: "3n4b5urk1ft4fl3mg5e62d9ado",
});

describe("account island on the server", () => {
  it("renders the checking step without touching window or document", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    const html = renderToString(<AccountIsland auth={config} texts={{ intro: "Welcome back." }} />);
    expect(html).toContain("Checking whether you are signed in");
    expect(html).toContain("Welcome back.");
    expect(html).toContain('tabindex="-1"');
    expect(findAuthSecrets(html)).toEqual([]);
  });

  it("says sign-in is unavailable without a user pool", () => {
    const html = renderToString(<AccountIsland auth={null} />);
    expect(html).toContain("Sign-in is unavailable at the moment.");
    expect(html).not.toContain("<form");
  });
});

describe("findAuthSecrets", () => {
  it("finds tokens, access keys and client secrets, not public ids", () => {
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl";
    const text = `a ${jwt} b AKIAIOSFODNN7EXAMPLE c {"clientSecret":"1example23456789secretabcdef"} ap-southeast-2_AbC123xyz 3n4b5urk1ft4fl3mg5e62d9ado`;
    expect(findAuthSecrets(text)).toEqual([
      { kind: "jwt", preview: "eyJhbGci…" },
      { kind: "aws-access-key", preview: "AKIAIOSF…" },
      { kind: "client-secret", preview: "1example…" },
    ]);
    expect(findAuthSecrets(JSON.stringify(config))).toEqual([]);
  });
});
