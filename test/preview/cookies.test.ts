import { cookie } from "@prismicio/client";
import { describe, expect, it } from "vitest";
import {
  accessTokenCookie,
  accessTokenFromCookies,
  clearAccessTokenCookie,
  isPreviewActive,
  PREVIEW_COOKIE_NAME,
  previewCookieFor,
  previewRefFromCookies,
  readCookie,
} from "../../src/preview/cookies.js";

const REF = "https://nzf2020.prismic.io/previews/XoYb1xAAAHB3n--b:XoYzZRAAACIAoFuy?websitePreviewId=XnjmnxIAACcAKLCf";

/** What the Prismic toolbar writes, encoded by hand the way encodeURIComponent does it. */
const TOOLBAR_VALUE =
  "%7B%22_tracker%22%3A%22abc%22%2C%22nzf2020.prismic.io%22%3A%7B%22preview%22%3A%22https%3A%2F%2Fnzf2020.prismic.io%2Fpreviews%2FXoYb1xAAAHB3n--b%3AXoYzZRAAACIAoFuy%3FwebsitePreviewId%3DXnjmnxIAACcAKLCf%22%7D%7D";

describe("preview cookie", () => {
  it("has the name @prismicio/client uses", () => {
    expect(PREVIEW_COOKIE_NAME).toBe(cookie.preview);
  });

  it("reads the ref for our repository from the toolbar's JSON value", () => {
    const jar = `other=1; io.prismic.preview=${TOOLBAR_VALUE}; x=y`;
    expect(previewRefFromCookies(jar, "nzf2020")).toBe(REF);
    expect(isPreviewActive(jar, "nzf2020")).toBe(true);
  });

  it("is not active for another repository's preview or without the cookie", () => {
    const jar = `io.prismic.preview=${TOOLBAR_VALUE}`;
    expect(previewRefFromCookies(jar, "other-repo")).toBeUndefined();
    expect(isPreviewActive("a=1; b=2", "nzf2020")).toBe(false);
    expect(isPreviewActive("", "nzf2020")).toBe(false);
  });

  it("accepts the older bare-URL value when its host is the repository", () => {
    expect(previewRefFromCookies(`io.prismic.preview=${encodeURIComponent(REF)}`, "nzf2020")).toBe(REF);
    expect(previewRefFromCookies(`io.prismic.preview=${encodeURIComponent(REF)}`, "another")).toBeUndefined();
  });

  it("ignores a malformed value instead of throwing", () => {
    expect(previewRefFromCookies("io.prismic.preview=%7Bnot-json", "nzf2020")).toBeUndefined();
    expect(previewRefFromCookies("io.prismic.preview=%E0%A4%A", "nzf2020")).toBeUndefined();
  });

  it("writes the ref in the toolbar's shape, keeping other keys, and reads back", () => {
    const setCookie = previewCookieFor(
      `io.prismic.preview=${TOOLBAR_VALUE}`,
      "nzf2020",
      "https://nzf2020.prismic.io/previews/new",
      {
        secure: true,
      },
    );
    expect(setCookie.endsWith("; Path=/; SameSite=Lax; Secure")).toBe(true);
    const pair = setCookie.split(";")[0]!;
    const value = JSON.parse(decodeURIComponent(readCookie(pair, PREVIEW_COOKIE_NAME)!));
    expect(value).toEqual({
      _tracker: "abc",
      "nzf2020.prismic.io": { preview: "https://nzf2020.prismic.io/previews/new" },
    });
    expect(previewRefFromCookies(pair, "nzf2020")).toBe("https://nzf2020.prismic.io/previews/new");
  });
});

describe("access token cookie", () => {
  it("is per repository, path /, SameSite=Lax, a year long, Secure only on https", () => {
    expect(accessTokenCookie("nzf2020", "MC5a=b;c", { secure: false })).toBe(
      "prismic-auth-token-nzf2020=MC5a%3Db%3Bc; Path=/; SameSite=Lax; Max-Age=31536000",
    );
    expect(accessTokenCookie("nzf2020", "t", { secure: true })).toMatch(/; Secure$/);
  });

  it("reads back the token of the right repository only", () => {
    const jar = "prismic-auth-token-nzf2020=MC5a%3Db%3Bc; prismic-auth-token-other=zzz";
    expect(accessTokenFromCookies(jar, "nzf2020")).toBe("MC5a=b;c");
    expect(accessTokenFromCookies(jar, "nzf2021")).toBeUndefined();
  });

  it("clears with an empty value and Max-Age=0", () => {
    expect(clearAccessTokenCookie("nzf2020", { secure: false })).toBe(
      "prismic-auth-token-nzf2020=; Path=/; SameSite=Lax; Max-Age=0",
    );
    expect(accessTokenFromCookies("prismic-auth-token-nzf2020=", "nzf2020")).toBeUndefined();
  });
});
