/**
 * Looking after a donor account in real Chromium, against cognito-local through the test bridge
 * (which adds what the emulator lacks: token revocation and devices, test/support/cognito-local.ts)
 * and the payments service's account API at /graphql (which asks the pool, as in production, whether
 * a token was revoked). Keyboard only, axe-core on each state, phone (390×844) and desktop (1280×800).
 *
 * Flows: change the password (a wrong current one first); change the e-mail address with the code
 * (a wrong code first) and sign in with the new address; add a phone number with its code; the
 * catalogue's message where the pool does not track devices, then a device list (ListDevices with
 * limit 60) with Forget; sign out of all devices: GlobalSignOut then RevokeToken, the old tokens
 * refused by the account API, and the other device sent back to sign-in.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaticServer } from "../../src/server/static-server.js";
import { expectAxeClean, expectStep, heading, pressButton, typeInto } from "../support/account-page.js";
import { isolatedContext, watchProblems, type PageProblems } from "../support/browser.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { type AccountSite, startAccountSite } from "../support/account-site.js";
import type { CognitoLocal } from "../support/cognito-local.js";
import type { TestPaymentsService } from "../support/payments-service.js";

let site: AccountSite;
let cognito: CognitoLocal;
let service: TestPaymentsService;
let server: StaticServer;
let browser: Browser;

// The e-mails' part no other file uses: the run's shared pool holds every file's users.
const UNIQUE = randomUUID().slice(0, 8);
const SHOTS = join(PROJECT_ROOT, "test-results/journeys");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

beforeAll(async () => {
  // The account API asks the pool whether a token was revoked, as in production: the run's bridge,
  // which this file's bridge tells of each revocation (cognito-local.ts).
  site = await startAccountSite({ shared: true });
  ({ cognito, service, server, browser } = site);
}, 240_000);

afterAll(async () => {
  await site?.stop();
});

async function newDonor(email: string, password: string): Promise<void> {
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: "email", Value: email }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: cognito.code });
}

async function device(viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await isolatedContext(browser, { viewport });
  await site.route(context);
  return context;
}

function ownProblems(seen: PageProblems): string[] {
  // The emulator and the bridge answer refusals (wrong password or code, revoked token) with 400.
  const expected = (e: string) => e.startsWith(cognito.endpoint) || /status of 40[01]/.test(e);
  return [
    ...seen.consoleErrors.filter((e) => !expected(e)),
    ...seen.pageErrors,
    ...seen.failedRequests.filter((r) => r.startsWith(server.url)),
  ];
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/account/`);
  await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
  await expectStep(page, "Sign in", { focused: false });
  expect(await page.locator(".account > p").textContent()).toMatch(/^Sign in with your e-mail address/);
  await typeInto(page, "E-mail address", email);
  await typeInto(page, "Password", password);
  await pressButton(page, "Sign in");
}

const section = (page: Page, title: string) =>
  page.locator("section.account-security", { has: page.locator(`h3:text-is("${title}")`) });
const fieldError = (page: Page, label: string) =>
  page.locator(".account-field", { has: page.getByLabel(label, { exact: true }) }).locator(".account-field-error");
const focusedText = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.labels?.[0]?.textContent ?? el?.textContent?.trim() ?? "";
  });

/** The account API with a raw token, as any client would call it. */
function callApi(token: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(
      `${service.url}/graphql`,
      { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` } },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c));
        res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify({ query: "{ me { id } }" }));
  });
}

async function accessTokenOf(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies(server.url)).find((c) => c.name.endsWith(".accessToken"));
  if (!cookie) throw new Error("no access token cookie");
  return decodeURIComponent(cookie.value);
}

describe("account security in Chromium against cognito-local", () => {
  it("changes the password by keyboard: a wrong current password is refused beside its field (phone)", async () => {
    const email = `hana-${UNIQUE}@example.org`;
    await newDonor(email, "first long phrase");
    const context = await device(PHONE);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signIn(page, email, "first long phrase");
    await expectStep(page, "Your account");
    // The signed-out words ("No account yet? You can create one…") are gone once signed in.
    expect(await page.locator(".account > p").count()).toBe(0);
    // The pool's MFA is off (the default): two-step sign-in is not offered at all.
    expect(await page.locator("h3", { hasText: "Two-step sign-in" }).count()).toBe(0);
    expect(await page.locator(".account-details").textContent()).not.toContain("Two-step");
    await expectAxeClean(page, "signed in");

    await typeInto(page, "Current password", "not my password");
    await typeInto(page, "New password", "second long phrase");
    await pressButton(page, "Change password");
    await expect
      .poll(() => fieldError(page, "Current password").textContent(), { timeout: 15_000 })
      .toBe("Error: Your current password is not correct. Check it and try again.");
    await expect.poll(() => focusedText(page)).toBe("Current password");
    await expectAxeClean(page, "wrong current password");

    await typeInto(page, "Current password", "first long phrase");
    await pressButton(page, "Change password");
    const status = section(page, "Password").locator("[role=status]");
    await expect
      .poll(() => status.textContent(), { timeout: 15_000 })
      .toBe("Your password is changed. Use the new one the next time you sign in.");
    await expect
      .poll(() => focusedText(page))
      .toBe("Your password is changed. Use the new one the next time you sign in.");
    // The fields are emptied: nothing typed stays on screen.
    expect(await page.getByLabel("New password", { exact: true }).inputValue()).toBe("");

    await pressButton(page, "Sign out");
    await expectStep(page, "Sign in");
    await signIn(page, email, "first long phrase");
    await expect
      .poll(() => fieldError(page, "Password").textContent(), { timeout: 15_000 })
      .toBe("Error: The e-mail address or password is not correct.");
    await typeInto(page, "Password", "second long phrase");
    await pressButton(page, "Sign in");
    await expectStep(page, "Your account");
    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 90_000);

  it("changes the e-mail address with its code, adds a phone number, then signs in with the new address (desktop)", async () => {
    const email = `idris-${UNIQUE}@example.org`;
    const password = "idris long phrase";
    await newDonor(email, password);
    const context = await device(DESKTOP);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signIn(page, email, password);
    await expectStep(page, "Your account");

    await pressButton(page, "Change e-mail address");
    await expect.poll(() => focusedText(page)).toBe("New e-mail address");
    await page.keyboard.type(`idris.new-${UNIQUE}@example.org`);
    await pressButton(page, "Save and send a code");
    const emailSection = section(page, "E-mail address");
    await expect
      .poll(() => emailSection.textContent(), { timeout: 15_000 })
      .toContain("Enter it here to verify your e-mail address.");
    await expect.poll(() => focusedText(page)).toBe("Code from the e-mail");
    await expectAxeClean(page, "e-mail code");
    await page.keyboard.type("000000");
    await pressButton(page, "Verify");
    await expect
      .poll(() => fieldError(page, "Code from the e-mail").textContent(), { timeout: 15_000 })
      .toBe("Error: That code is not correct. Check the e-mail we sent and try again.");
    await typeInto(page, "Code from the e-mail", cognito.code);
    await pressButton(page, "Verify");
    await expect
      .poll(() => emailSection.locator("[role=status]").textContent(), { timeout: 15_000 })
      .toBe("Your e-mail address is verified.");
    expect(await emailSection.textContent()).toContain(`idris.new-${UNIQUE}@example.org (verified)`);

    await pressButton(page, "Add a phone number");
    await page.keyboard.type("0412 345 678");
    await pressButton(page, "Save and send a code");
    // The pool verifies only e-mail by itself (AutoVerifiedAttributes): the number is saved, not
    // verified, and the donor asks for the code.
    const phoneSection = section(page, "Phone number");
    await expect
      .poll(() => phoneSection.locator("[role=status]").textContent(), { timeout: 15_000 })
      .toBe("Your phone number is changed to +61412345678.");
    expect(await phoneSection.textContent()).toContain("+61412345678 (not verified)");
    await pressButton(page, "Verify phone number");
    await expect.poll(() => focusedText(page), { timeout: 15_000 }).toBe("Code from the text message");
    await page.keyboard.type(cognito.code);
    await pressButton(page, "Verify");
    await expect
      .poll(() => phoneSection.locator("[role=status]").textContent(), { timeout: 15_000 })
      .toBe("Your phone number is verified.");
    expect(await phoneSection.textContent()).toContain("+61412345678 (verified)");
    await expectAxeClean(page, "e-mail and phone changed");
    await page.screenshot({ path: join(SHOTS, "account-security-1280.png"), fullPage: true });

    await pressButton(page, "Sign out");
    await expectStep(page, "Sign in");
    await signIn(page, `idris.new-${UNIQUE}@example.org`, password);
    await expectStep(page, "Your account");
    expect(ownProblems(seen)).toEqual([]);
    await context.close();
  }, 90_000);

  it("says the pool does not track devices; with tracking, lists devices (limit 60) and forgets one", async () => {
    const email = `jamila-${UNIQUE}@example.org`;
    const password = "jamila long phrase";
    await newDonor(email, password);
    const phone = await device(PHONE);
    const page = await phone.newPage();
    await signIn(page, email, password);
    await expectStep(page, "Your account");
    expect(await section(page, "Signed-in devices").textContent()).toContain(
      "Device tracking has not been configured in this User Pool, so we cannot list the devices you are signed in on.",
    );

    cognito.trackDevices = true;
    try {
      const laptop = await device(DESKTOP);
      const other = await laptop.newPage();
      await signIn(other, email, password);
      await expectStep(other, "Your account");
      await pressButton(page, "Sign out");
      await expectStep(page, "Sign in");
      await signIn(page, email, password);
      await expectStep(page, "Your account");
      const items = section(page, "Signed-in devices").locator("li");
      await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(2);
      expect(cognito.deviceLimits.length).toBeGreaterThan(0);
      expect(cognito.deviceLimits.every((limit) => limit === 60)).toBe(true);
      await expectAxeClean(page, "devices");
      const firstName = (await items.first().locator("button").getAttribute("aria-label"))!.replace(/^Forget /, "");
      // Named from the user agent the pool stored, as a person would say it.
      expect(firstName).toBe("Chrome on Linux");
      expect(await items.first().innerText()).toMatch(/Last used \d{1,2} [A-Z][a-z]+ \d{4}/);
      // A 44 px target.
      const box = (await items.first().locator("button").boundingBox())!;
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
      await pressButton(page, "Forget");
      await expect
        .poll(() => section(page, "Signed-in devices").locator("[role=status]").textContent(), { timeout: 15_000 })
        .toBe(`${firstName} is forgotten. It will be treated as a new device the next time it signs in.`);
      await expect.poll(() => items.count()).toBe(1);
      await laptop.close();
    } finally {
      cognito.trackDevices = false;
    }
    await phone.close();
  }, 90_000);

  it("signs out of all devices: GlobalSignOut then RevokeToken, old tokens refused by the account API, the other device signed out", async () => {
    const email = `karim-${UNIQUE}@example.org`;
    const password = "karim long phrase";
    await newDonor(email, password);
    const phone = await device(PHONE);
    const laptop = await device(DESKTOP);
    const here = await phone.newPage();
    const there = await laptop.newPage();
    const seen = watchProblems(here);
    await signIn(here, email, password);
    await expectStep(here, "Your account");
    await signIn(there, email, password);
    await expectStep(there, "Your account");
    const oldToken = await accessTokenOf(phone);
    const otherToken = await accessTokenOf(laptop);
    expect((await callApi(oldToken)).status).toBe(200);

    const before = cognito.bridged.length;
    await pressButton(here, "Sign out of all devices");
    await pressButton(here, "Yes, sign out everywhere");
    await expectStep(here, "Sign in");
    expect(await here.locator(".account-step [role=status]").textContent()).toBe("You are signed out on all devices.");
    expect(cognito.bridged.slice(before)).toEqual(["GlobalSignOut", "RevokeToken"]);

    // The tokens of both devices stop working at the API, with the catalogue's sentence: within the
    // 5 s the service believes a token the pool accepted (src/account-api/revocation.ts).
    for (const token of [oldToken, otherToken]) {
      await expect.poll(async () => (await callApi(token)).status, { timeout: 10_000, interval: 500 }).toBe(401);
      const answer = await callApi(token);
      expect(JSON.parse(answer.body).errors[0].message).toMatch(/^The user is not authenticated\./);
    }
    // The other device finds its session gone and asks to sign in again, saying why.
    await there.reload();
    await expectStep(there, "Sign in", { focused: false });
    await expect
      .poll(() => there.locator(".account-step [role=alert]").textContent(), { timeout: 15_000 })
      .toBe("Error: You were signed out on all devices. Please sign in again.");
    await expectAxeClean(there, "signed out elsewhere");
    expect(await heading(there).textContent()).toBe("Sign in");
    expect(ownProblems(seen)).toEqual([]);
    await phone.close();
    await laptop.close();
  }, 90_000);
});
