/**
 * Two-step sign-in where the pool allows it (NZF_COGNITO_MFA=optional; the default pool
 * has MFA off, where account-security.test.ts checks it is not offered). Real Chromium, keyboard
 * only, axe-core, against cognito-local with MFA OPTIONAL: set up an authenticator app
 * (AssociateSoftwareToken, VerifySoftwareToken with a wrong then the right code, computed here by
 * RFC 6238 from the key the page shows), which becomes the preferred second step; signing in
 * then asks for the app's code (the SOFTWARE_TOKEN_MFA challenge); turning it off again
 * (SetUserMFAPreference) signs in with the password alone.
 */
import { createHmac } from "node:crypto";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { expectAxeClean, expectStep, pressButton, typeInto } from "../support/account-page.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { createFixture, PROJECT_ROOT, type Fixture } from "../support/build-fixture.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";

let cognito: CognitoLocal;
let fixture: Fixture;
let server: StaticServer;
let browser: Browser;

const EMAIL = "layla@example.org";
const PASSWORD = "layla long phrase";

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) from a base32 key, as authenticator apps compute it. */
function totp(base32: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of base32.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

beforeAll(async () => {
  [cognito, fixture, browser] = await Promise.all([
    startCognitoLocal({ mfa: "OPTIONAL" }),
    createFixture({ sample: true }),
    launchBrowser(),
  ]);
  const auth = resolveAuthConfig({
    userPoolId: cognito.userPoolId,
    userPoolClientId: cognito.clientId,
    userPoolEndpoint: cognito.endpoint,
    authFlowType: "USER_PASSWORD_AUTH",
    mfa: "optional",
  });
  await fixture.run({ publicConfig: { auth } });
  // As `nzf-build preview` serves it: the site's own `_headers` (the CSP) applied.
  server = await startPreviewServer({ root: fixture.config.outDir, host: "127.0.0.1", port: 0 });
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: EMAIL,
    Password: PASSWORD,
    UserAttributes: [{ Name: "email", Value: EMAIL }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: EMAIL, ConfirmationCode: cognito.code });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await cognito?.stop();
  await fixture?.cleanup();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/account/`);
  await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
  await expectStep(page, "Sign in", { focused: false });
  await typeInto(page, "E-mail address", EMAIL);
  await typeInto(page, "Password", PASSWORD);
  await pressButton(page, "Sign in");
}

const twoStep = (page: Page) =>
  page.locator("section.account-security", { has: page.locator('h3:text-is("Two-step sign-in")') });

describe("two-step sign-in where the pool allows it", () => {
  it("sets up an authenticator app, is asked for its code at sign-in, and turns it off again", async () => {
    const context = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page);
    await expectStep(page, "Your account");
    expect(await page.locator(".account-details").textContent()).toContain("Two-step sign-inOff");
    await expectAxeClean(page, "two-step offered");

    await pressButton(page, "Set up an authenticator app");
    const key = page.locator(".account-secret");
    await key.waitFor({ timeout: 15_000 });
    // The key in groups of four, beside a QR code drawn in the page (no image fetched from anywhere).
    const grouped = (await key.textContent())!;
    expect(grouped).toMatch(/^([A-Z2-7=]{4} )+[A-Z2-7=]{1,4}$/);
    const secret = grouped.replace(/ /g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    const qr = page.getByRole("img", { name: "QR code of your authenticator key for National Zakat Foundation" });
    expect(await qr.evaluate((el) => el.tagName.toLowerCase())).toBe("svg");
    expect((await qr.boundingBox())!.width).toBe(200);
    // No group is broken across lines at 390 px.
    const groupTops = await key
      .locator(".account-secret-group")
      .evaluateAll((els) => els.map((el) => el.getClientRects().length));
    expect(groupTops.every((n) => n === 1)).toBe(true);
    await twoStep(page).screenshot({ path: join(PROJECT_ROOT, "test-results/journeys/account-mfa-key-390.png") });
    expect(
      await page.getByRole("link", { name: "open the key in your authenticator app" }).getAttribute("href"),
    ).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent))
      .toBe("Code from the app");
    await expectAxeClean(page, "authenticator key");
    await page.keyboard.type("000000");
    await pressButton(page, "Turn on the authenticator app");
    await expect
      .poll(() => twoStep(page).locator(".account-field-error").textContent(), { timeout: 15_000 })
      .toMatch(/^Error: That is not the code your authenticator app shows for National Zakat Foundation now\./);
    // Too short: said before asking the pool.
    await typeInto(page, "Code from the app", "12345");
    await pressButton(page, "Turn on the authenticator app");
    await expect
      .poll(() => twoStep(page).locator(".account-field-error").textContent())
      .toBe("Error: The code has 6 digits; you typed 5. Type the whole number your authenticator app shows.");
    await typeInto(page, "Code from the app", totp(secret));
    await pressButton(page, "Turn on the authenticator app");
    await expect
      .poll(() => twoStep(page).locator("[role=status]").textContent(), { timeout: 15_000 })
      .toBe("Your authenticator app is set up. From now on you will enter its code after your password.");
    expect(await page.locator(".account-details").textContent()).toContain("Two-step sign-inAuthenticator app");
    await page.screenshot({ path: join(PROJECT_ROOT, "test-results/journeys/account-mfa-390.png"), fullPage: true });

    // Signing in now asks for the app's code.
    await pressButton(page, "Sign out");
    await expectStep(page, "Sign in");
    await signIn(page);
    await expectStep(page, "Enter the code from your authenticator app").catch(async () => {
      throw new Error(`step after password: ${await page.locator(".account-step > h2").textContent()}`);
    });
    await expectAxeClean(page, "app code asked");
    await typeInto(page, "Code", totp(secret));
    await pressButton(page, "Continue");
    await expectStep(page, "Your account");

    // Off again: the preference is saved and the next sign-in needs the password only.
    await tabToRadio(page, "Off: sign in with your password only");
    await pressButton(page, "Save");
    await expect
      .poll(() => twoStep(page).locator("[role=status]").textContent(), { timeout: 15_000 })
      .toBe("Two-step sign-in is off. You sign in with your password only.");
    await pressButton(page, "Sign out");
    await expectStep(page, "Sign in");
    await signIn(page);
    await expectStep(page, "Your account");
    await context.close();
  }, 120_000);
});

/** Tabs into the radio group and selects a choice with the arrow keys, as a keyboard user does. */
async function tabToRadio(page: Page, label: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => (document.activeElement as HTMLInputElement).type === "radio")) break;
  }
  for (let i = 0; i < 5; i++) {
    const current = await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent);
    if (current === label) {
      await page.keyboard.press("Space");
      return;
    }
    await page.keyboard.press("ArrowDown");
  }
  throw new Error(`no radio "${label}"`);
}
