/**
 * Donor accounts in real Chromium: the built /account page (sample site, generated `_headers` with
 * the CSP enforced) against the real cognito-local emulator through the test bridge
 * (test/support/cognito-local.ts). The emulator has no SRP, so the build uses USER_PASSWORD_AUTH.
 * The page is served on http://127.0.0.1, a secure context for Chromium, so the Secure token
 * cookies stick as they would on https in production.
 *
 * Flows: sign up (keyboard only), wrong code, right code, automatic sign-in, session across a
 * reload, sign out; sign in (keyboard only) with a wrong then the right password, sign out of all
 * devices; forgot password → code → new password → sign in. axe-core runs on every step, also
 * with errors showing. Donors' other pages never load the account code or the auth library.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type AccountSite, startAccountSite } from "../support/account-site.js";
import type { CognitoLocal } from "../support/cognito-local.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, proxyOf, watchProblems, type PageProblems } from "../support/browser.js";
import { expectAxeClean, expectStep, heading, pressButton, typeInto } from "../support/account-page.js";
import { measureAccountJs, type AccountJsSize } from "../../bench/account.js";

const GTM_STAND_IN = `(window.dataLayer = window.dataLayer || []).push({ event: "stand-in-loaded" });`;

let site: AccountSite;
let cognito: CognitoLocal;
let server: StaticServer;
let browser: Browser;
let js: AccountJsSize;
// The e-mail's part no other file uses: the run's shared pool holds every file's users.
const UNIQUE = randomUUID().slice(0, 8);

beforeAll(async () => {
  // The run's shared account build (its cognito address routed to this file's bridge per context).
  site = await startAccountSite({ shared: true });
  ({ cognito, server, browser } = site);
  js = await measureAccountJs(site.outDir);
}, 240_000);

afterAll(async () => {
  await site?.stop();
});

/** A fresh browser profile (one device), with the tag manager answered by a stand-in. */
async function device(): Promise<BrowserContext> {
  const context = await isolatedContext(browser);
  await site.route(context);
  proxyOf(context).answer("https://www.googletagmanager.com/", () => ({
    headers: { "content-type": "text/javascript" },
    body: GTM_STAND_IN,
  }));
  return context;
}

function ownProblems(seen: PageProblems): string[] {
  // The emulator answers a wrong code or password with HTTP 400, which Chromium logs as a failed resource.
  const expected = (e: string) => e.startsWith(cognito.endpoint) || /status of 400/.test(e);
  return [
    ...seen.consoleErrors.filter((e) => !expected(e)),
    ...seen.pageErrors,
    ...seen.failedRequests.filter((r) => r.startsWith(server.url)),
  ];
}

async function openAccount(page: Page, title: string): Promise<void> {
  await page.goto(server.url + "/account/");
  await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
  await expectStep(page, title, { focused: false });
}

/** The error shown beside a field (the island puts service errors about a field there too). */
const fieldError = (page: Page, label: string) =>
  page
    .locator(".account-field", { has: page.getByLabel(label, { exact: true }) })
    .locator(".account-field-error")
    .textContent();
const focusedLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? null);
const statusText = (page: Page) => page.locator(".account-step [role=status]").textContent();

/** The auth cookies of this device (Amplify's CookieStorage keys). */
async function tokenCookies(context: BrowserContext) {
  return (await context.cookies(server.url)).filter((c) =>
    c.name.startsWith(`CognitoIdentityServiceProvider.${cognito.clientId}.`),
  );
}

async function signInByKeyboard(page: Page, email: string, password: string): Promise<void> {
  await typeInto(page, "E-mail address", email);
  await typeInto(page, "Password", password);
  await pressButton(page, "Sign in");
}

describe("donor accounts in Chromium against cognito-local", () => {
  const email = `amina-${UNIQUE}@example.org`;
  const password = "a long zakat phrase";

  it("signs up by keyboard, rejects a wrong code, confirms, is signed in, keeps the session across a reload, signs out", async () => {
    const context = await device();
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openAccount(page, "Sign in");
    await expectAxeClean(page, "sign in");

    await pressButton(page, "Create an account");
    await expectStep(page, "Create an account");
    await expectAxeClean(page, "create an account");

    // Too short a password: the field says so (text, not colour), focus goes to it, nothing is sent.
    await typeInto(page, "E-mail address", email);
    await typeInto(page, "Password", "short");
    await pressButton(page, "Create account");
    const passwordField = page.locator(".account-field", { has: page.getByLabel("Password", { exact: true }) });
    await expect.poll(() => passwordField.locator(".account-field-error").textContent()).toMatch(/^Error: .*8/);
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe("password");
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await expectAxeClean(page, "password too short");

    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(password);
    await pressButton(page, "Create account");
    await expectStep(page, "Confirm your e-mail address");
    await expectAxeClean(page, "confirm");

    await typeInto(page, "Confirmation code", "000000");
    await pressButton(page, "Confirm");
    await expect
      .poll(() => fieldError(page, "Confirmation code"), { timeout: 15_000 })
      .toBe("Error: That code is not correct. Check the e-mail we sent and try again.");
    expect(await page.getByLabel("Confirmation code").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => focusedLabel(page)).toBe("Confirmation code");
    expect(await heading(page).textContent()).toBe("Confirm your e-mail address");
    await expectAxeClean(page, "wrong code");

    await typeInto(page, "Confirmation code", cognito.code);
    await pressButton(page, "Confirm");
    // Signed in automatically after confirming: straight to the account, no password asked again.
    await expectStep(page, "Your account");
    expect(await page.locator(".account-details").textContent()).toContain(email);
    await expectAxeClean(page, "your details");

    // Tokens are in cookies only: a year, path /, Secure, SameSite Lax.
    const cookies = await tokenCookies(context);
    expect(cookies.map((c) => c.name.split(".").pop()).sort()).toEqual(
      expect.arrayContaining(["accessToken", "idToken", "refreshToken"]),
    );
    for (const c of cookies) {
      expect(c.path).toBe("/");
      expect(c.secure).toBe(true);
      expect(c.sameSite).toBe("Lax");
      expect((c.expires * 1000 - Date.now()) / 86_400_000).toBeGreaterThan(364);
    }
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => /Cognito|amplify|token/i.test(k))),
    ).toEqual([]);

    // A reload (or a new visit) finds the session in the cookies.
    await openAccount(page, "Your account");
    await expectAxeClean(page, "your details after reload");

    await pressButton(page, "Sign out");
    await expectStep(page, "Sign in");
    expect(await statusText(page)).toBe("You are signed out.");
    expect(await tokenCookies(context)).toEqual([]);
    await expectAxeClean(page, "signed out");
    await openAccount(page, "Sign in");

    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 90_000);

  it("signs in by keyboard, says so on a wrong password, and signs out of all devices", async () => {
    const context = await device();
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openAccount(page, "Sign in");

    // Empty fields: the earlier site's messages beside each field.
    await pressButton(page, "Sign in");
    await expect
      .poll(() => page.locator(".account-field-error").allTextContents())
      .toEqual(["Error: Username cannot be empty", "Error: Password cannot be empty"]);
    // Focus moves in an effect, which runs after the errors are painted: wait for it.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe("email");
    await expectAxeClean(page, "empty sign-in");

    await signInByKeyboard(page, email, "not my password");
    await expect
      .poll(() => fieldError(page, "Password"), { timeout: 15_000 })
      .toBe("Error: The e-mail address or password is not correct.");
    await expect.poll(() => focusedLabel(page)).toBe("Password");
    expect(await heading(page).textContent()).toBe("Sign in");
    expect(await tokenCookies(context)).toEqual([]);
    await expectAxeClean(page, "wrong password");

    await signInByKeyboard(page, email, password);
    await expectStep(page, "Your account");
    // The default pool does not track devices: the page says so in the catalogue's words.
    expect(await page.locator(".account-step").textContent()).toContain(
      "Device tracking has not been configured in this User Pool, so we cannot list the devices you are signed in on.",
    );

    const before = cognito.bridged.filter((a) => a === "GlobalSignOut").length;
    await pressButton(page, "Sign out of all devices");
    await pressButton(page, "Yes, sign out everywhere");
    await expectStep(page, "Sign in");
    expect(await statusText(page)).toBe("You are signed out on all devices.");
    expect(cognito.bridged.filter((a) => a === "GlobalSignOut").length).toBe(before + 1);
    expect(await tokenCookies(context)).toEqual([]);
    await openAccount(page, "Sign in");

    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 90_000);

  it("resets a forgotten password with the code, then signs in with the new one only", async () => {
    const context = await device();
    const page = await context.newPage();
    const seen = watchProblems(page);
    await openAccount(page, "Sign in");
    const newPassword = "a newer zakat phrase";

    await pressButton(page, "Forgot your password?");
    await expectStep(page, "Reset your password");
    await expectAxeClean(page, "reset your password");
    await typeInto(page, "E-mail address", email);
    await pressButton(page, "Send code");
    await expectStep(page, "Choose a new password");
    await expectAxeClean(page, "choose a new password");

    await typeInto(page, "Code", cognito.code);
    await typeInto(page, "New password", newPassword);
    await pressButton(page, "Save new password");
    await expectStep(page, "Sign in");
    expect(await statusText(page)).toBe("Your new password is saved. Please sign in with it.");

    await signInByKeyboard(page, email, password);
    await expect
      .poll(() => fieldError(page, "Password"), { timeout: 15_000 })
      .toBe("Error: The e-mail address or password is not correct.");
    await signInByKeyboard(page, email, newPassword);
    await expectStep(page, "Your account");
    expect((await tokenCookies(context)).length).toBeGreaterThanOrEqual(3);

    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 90_000);

  it("/account loads its code and the auth library; donors' other pages load none of it", async () => {
    const accountOnly = js.files.filter((f) => f.role === "account" || f.role === "amplify").map((f) => f.url);
    expect(js.files.some((f) => f.role === "amplify")).toBe(true);
    const context = await device();
    const requested = async (path: string, ready: (page: Page) => Promise<void>) => {
      const page = await context.newPage();
      const urls: string[] = [];
      page.on("request", (req) => urls.push(new URL(req.url()).pathname));
      await page.goto(server.url + path);
      await ready(page);
      await page.close();
      return urls;
    };
    // The check can fail: on /account every account-only file is fetched (the auth library once the island starts).
    const onAccount = await requested("/account/", (page) => expectStep(page, "Sign in", { focused: false }));
    expect(accountOnly.filter((u) => !onAccount.includes(u))).toEqual([]);
    for (const path of ["/", "/about/", "/pay/zakat/"]) {
      const urls = await requested(path, async (page) => {
        await page.waitForLoadState("networkidle");
      });
      expect(urls.filter((u) => u.startsWith("/_islands/")).length, `${path} loads scripts`).toBeGreaterThan(0);
      expect(
        urls.filter((u) => accountOnly.includes(u)),
        path,
      ).toEqual([]);
    }
    // The same from the built HTML, for every donor page (the editor's /preview/ renders any template).
    expect(js.otherPages.filter((p) => p.page !== "/preview/")).toEqual([]);
    await context.close();
  }, 90_000);
});
