/**
 * Pause on the account page, in real Chromium at 390×844 and 1280×800: card instalments whose
 * Stripe schedule has not started (only the first payment made) are offered Pause like a monthly
 * card gift (the service cancels the not-started schedule and lays a new one on resume), with no
 * note that they cannot. And when an action's answer is an error (the gift was cancelled on another
 * device while the question was open), focus goes to the alert that says so: never to the empty
 * status line (an empty outlined box that says nothing), so a keyboard or screen-reader user hears
 * the outcome. axe-core at each step.
 *
 * The payments service (on PGlite) serves the account API; the gifts are given while signed in
 * with POST /donations and paid at the Stripe API stand-in, whose signed webhook makes them paid.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/payments/schedules.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { expectAxeClean, expectStep, pressButton, signUpOnAccountPage } from "../support/account-page.js";
import { type AccountSite, startAccountSite } from "../support/account-site.js";
import { isolatedContext, watchProblems } from "../support/browser.js";
import type { CognitoLocal } from "../support/cognito-local.js";
import { TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "../support/payments-service.js";

let site: AccountSite;
let cognito: CognitoLocal;
let service: TestPaymentsService;
let server: StaticServer;

// Unique in the run's shared pool (other files make their own users there).
const EMAIL = `samira-${randomUUID().slice(0, 8)}@example.org`;
const PASSWORD = "a long instalment phrase";

beforeAll(async () => {
  site = await startAccountSite({ shared: true });
  ({ cognito, service, server } = site);
}, 240_000);

afterAll(async () => {
  await site?.stop();
});

async function accessToken(): Promise<string> {
  const signedIn = await cognito.call<{ AuthenticationResult: { AccessToken: string } }>("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: cognito.clientId,
    AuthParameters: { USERNAME: EMAIL, PASSWORD },
  });
  return signedIn.AuthenticationResult.AccessToken;
}

/** A card gift given by the signed-in donor, paid with Stripe's test Visa (the webhook marks it paid). */
async function cardGift(token: string, gift: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID(), authorization: `Bearer ${token}` },
    body: JSON.stringify({
      currency: "AUD",
      anonymous: false,
      coverFees: false,
      donor: { firstName: "Samira", lastName: "Aziz", email: EMAIL, phone: "0412 345 678" },
      ...gift,
    }),
  });
  const body = (await res.json()) as { donationId: string; clientSecret: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  const confirmed = await fetch(
    `${service.stripe.url}/v1/payment_intents/${body.clientSecret.split("_secret_")[0]}/confirm`,
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: TEST_PUBLISHABLE_KEY,
        client_secret: body.clientSecret,
        payment_method: "pm_card_visa",
      }),
    },
  );
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  await service.stripe.settled();
  return `gift_${body.donationId}`;
}

async function graphql(token: string, query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${service.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  return (await res.json()) as any;
}

/** The gift whose title names this fund. */
const giftOf = (page: Page, fund: string) =>
  page.locator(".account-gift").filter({ has: page.getByRole("heading", { name: new RegExp(`^${fund}:`) }) });

describe("Pause on the account page", () => {
  it("is offered to instalments whose Stripe schedule has not started; an error's alert takes focus", async () => {
    const context = await isolatedContext(site.browser, { viewport: { width: 390, height: 844 } });
    await site.route(context);
    const page = await context.newPage();
    const seen = watchProblems(page);
    await signUpOnAccountPage(page, server.url, { email: EMAIL, password: PASSWORD, code: cognito.code });
    const token = await accessToken();
    await cardGift(token, {
      fund: "zakat",
      amountCents: 120_000,
      frequency: "monthly-instalments",
      instalments: { count: 12 },
    });
    const monthly = await cardGift(token, { fund: "sadaqah", amountCents: 2_500, frequency: "monthly" });

    await page.reload();
    await expectStep(page, "Your account", { focused: false });
    await expect.poll(() => page.locator(".account-gift").count(), { timeout: 15_000 }).toBe(2);
    const instalments = giftOf(page, "Zakat");
    const sadaqah = giftOf(page, "Sadaqah");
    const next = (await graphql(token, "{ regularGifts { fund nextChargeDate canPause } }", {})).data.regularGifts;
    const zakatNext = next.find((g: { fund: string }) => g.fund === "zakat").nextChargeDate as string;
    expect(zakatNext > todayIn("Australia/Sydney")).toBe(true);

    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      // Instalments in their first month: Pause, as for the monthly gift, and no note against it.
      expect(await instalments.getByRole("button", { name: "Pause" }).count()).toBe(1);
      expect(await instalments.innerText()).not.toContain("can be paused once");
      await expect(instalments.getByRole("button", { name: "Skip next payment" }).isVisible()).resolves.toBe(true);
      expect(await sadaqah.getByRole("button", { name: "Pause" }).count()).toBe(1);
      await expectAxeClean(page, `Pause offered, ${viewport.width}×${viewport.height}`);
    }

    // An action whose answer is an error: the question is open here while the donor cancels the
    // gift on another device, then confirms. The alert says what happened and has focus.
    await page.setViewportSize({ width: 390, height: 844 });
    // (Both gifts have a Pause: the keyboard on the monthly gift's.)
    await sadaqah.getByRole("button", { name: "Pause" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => sadaqah.locator(".account-confirm p").first().textContent())
      .toMatch(/^Pause your monthly gift to Sadaqah\?/);
    const cancelled = await graphql(
      token,
      "mutation($id: ID!) { cancelRegularGift(id: $id, confirm: true) { changed } }",
      { id: monthly },
    );
    expect(cancelled.data.cancelRegularGift.changed).toBe(true);
    await pressButton(page, "Yes, pause this gift");
    const message =
      "Your monthly gift to Sadaqah was cancelled and cannot be changed. To give regularly again, start a new gift on the Sadaqah page.";
    await expect.poll(() => sadaqah.getByRole("alert").innerText()).toBe(`Error: ${message}`);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return { role: el?.getAttribute("role") ?? null, text: el?.innerText.trim() ?? "" };
      });
    // Focus moves in an effect, after the alert is painted.
    await expect.poll(focused).toEqual({ role: "alert", text: `Error: ${message}` });
    // The status line is empty, and nothing empty is focused (the old focus went there).
    expect(await sadaqah.getByRole("status").innerText()).toBe("");
    await expectAxeClean(page, "error alert focused, 390×844");
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectAxeClean(page, "error alert focused, 1280×800");

    expect([...seen.pageErrors, ...seen.failedRequests.filter((r) => r.startsWith(server.url))]).toEqual([]);
    await context.close();
  }, 180_000);
});
