/**
 * A PayPal monthly gift on the account page, as a donor on a phone (390×844) in real Chromium: back
 * from PayPal's window (`/account/?paypal=agreed|cancelled&gift=…`, where PayPal returns a donor
 * asked to agree to a new amount) the page says what happened beside that gift, and the address
 * loses the query so a reload does not say it again; the gift says PayPal cannot skip one payment
 * and to pause instead, and offers no "Skip". axe-core at each step.
 *
 * The payments service (on PGlite) serves the account API; the gift is given while signed in and
 * made through PayPal's official server SDK against the PayPal REST stand-in, paid by its signed
 * webhook.
 */
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayPalApi } from "../../src/api/paypal/sdk.js";
import { createSdkPayPal } from "../../src/api/paypal/sdk-provider.js";
import { PAYPAL_AGREED, PAYPAL_CANCELLED } from "../../src/client/account/paypal-return.js";
import { PAYPAL_NO_SKIP } from "../../src/client/account/regular-gifts.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { type PayPalStandIn, startPayPalStandIn } from "../../src/stand-ins/paypal/server.js";
import { expectAxeClean, expectStep, signUpOnAccountPage } from "../support/account-page.js";
import { isolatedContext, watchProblems } from "../support/browser.js";
import { type AccountSite, startAccountSite } from "../support/account-site.js";
import type { CognitoLocal } from "../support/cognito-local.js";
import type { TestPaymentsService } from "../support/payments-service.js";

let site: AccountSite;
let cognito: CognitoLocal;
let service: TestPaymentsService;
let paypal: PayPalStandIn;
let server: StaticServer;
let browser: Browser;

// Unique in the run's shared pool (other files make their own users there).
const EMAIL = `hana-${randomUUID().slice(0, 8)}@example.org`;
const PASSWORD = "a long sadaqah phrase";

beforeAll(async () => {
  site = await startAccountSite({ shared: true });
  ({ cognito, service, server, browser } = site);
  paypal = await startPayPalStandIn({ webhookUrl: `${service.url}/paypal/webhook`, webhookRetryDelaysMs: [20] });
  const api = createPayPalApi({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    environment: "sandbox",
    webhookId: paypal.webhookId,
    apiBase: paypal.url,
  });
  service.deps.paypal = createSdkPayPal(api);
  service.deps.paypalApi = api;
}, 240_000);

afterAll(async () => {
  await paypal?.stop();
  await site?.stop();
});

async function signUp(page: Page): Promise<void> {
  await signUpOnAccountPage(page, server.url, { email: EMAIL, password: PASSWORD, code: cognito.code });
}

/** $25 a month of sadaqah given with PayPal by the signed-in donor, approved and paid by PayPal's webhook. */
async function paypalMonthly(): Promise<string> {
  const signedIn = await cognito.call<{ AuthenticationResult: { AccessToken: string } }>("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: cognito.clientId,
    AuthParameters: { USERNAME: EMAIL, PASSWORD },
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${service.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
        authorization: `Bearer ${signedIn.AuthenticationResult.AccessToken}`,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, text).toBeLessThan(300);
    return JSON.parse(text) as Record<string, string>;
  };
  const { donationId } = await post("/donations", {
    fund: "sadaqah",
    amountCents: 2_500,
    currency: "AUD",
    frequency: "monthly",
    paymentMethod: "paypal",
    anonymous: false,
    coverFees: false,
    donor: { firstName: "Hana", lastName: "Saleh", email: EMAIL, phone: "0412 345 678" },
  });
  const { subscriptionId } = await post(`/donations/${donationId}/paypal/subscription`, {});
  paypal.approveSubscription(subscriptionId!);
  await post(`/donations/${donationId}/paypal/capture`, { subscriptionId });
  await paypal.settled();
  return `gift_${donationId}`;
}

describe("a PayPal monthly gift on the account page (390×844)", () => {
  it("says what happened back from PayPal, beside the gift, once; and to pause rather than skip", async () => {
    const context = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    await site.route(context);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signUp(page);
    const giftId = await paypalMonthly();

    for (const [result, message] of [
      ["agreed", PAYPAL_AGREED],
      ["cancelled", PAYPAL_CANCELLED],
    ] as const) {
      await page.goto(`${server.url}/account/?paypal=${result}&gift=${giftId}`);
      await expectStep(page, "Your account", { focused: false });
      const gift = page.locator(".account-gift");
      await expect.poll(() => gift.count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => gift.innerText(), { timeout: 15_000 }).toContain(message);
      expect(await gift.getByRole("status").innerText()).toContain(message);
      // Taken out of the address: a reload does not say it again.
      expect(new URL(page.url()).search).toBe("");
      const text = await gift.innerText();
      expect(text).toContain(PAYPAL_NO_SKIP);
      expect(await gift.getByRole("button", { name: /skip/i }).count()).toBe(0);
      await expectAxeClean(page, `back from PayPal: ${result}`);
    }
    await page.reload();
    await expectStep(page, "Your account", { focused: false });
    await expect.poll(() => page.locator(".account-gift").innerText(), { timeout: 15_000 }).toContain(PAYPAL_NO_SKIP);
    const after = await page.locator(".account-gift").innerText();
    expect(after).not.toContain(PAYPAL_AGREED);
    expect(after).not.toContain(PAYPAL_CANCELLED);

    // Someone else's gift id, or a made-up word, says nothing.
    await page.goto(`${server.url}/account/?paypal=agreed&gift=gift_${randomUUID()}`);
    await expectStep(page, "Your account", { focused: false });
    await expect.poll(() => page.locator(".account-gift").innerText(), { timeout: 15_000 }).toContain(PAYPAL_NO_SKIP);
    expect(await page.locator(".account-gift").innerText()).not.toContain(PAYPAL_AGREED);
    expect(seen.pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
