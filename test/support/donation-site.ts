/**
 * What the donation browser tests (test/browser/donation-*.test.ts) share: donors give in real
 * Chromium on the run's shared sample build with payments ("payments-unreachable", shared-site.ts),
 * whose payments address is answered by the file's own payments service (payments-service.ts: src/api
 * on PGlite, with the Stripe API stand-in as Stripe; payments-route.ts), and a local stand-in for
 * Stripe.js served in place of js.stripe.com that confirms through the Stripe stand-in, whose signed
 * webhooks make gifts paid. `donationSiteForThisFile()` starts it all once per test file; the
 * helpers below drive a page as a donor does and read what reached the payments API.
 */
import { afterAll, beforeAll, expect } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, proxyOf, watchProblems, type PageProblems } from "./browser.js";
import { routePaymentsTo } from "./payments-route.js";
import { startTestPaymentsService, TEST_PUBLISHABLE_KEY, type TestPaymentsService } from "./payments-service.js";
import { sharedSampleSite, type SharedSite } from "./shared-site.js";
import { installStripeStandIn, type StripeStandIn } from "./stripe-stand-in.js";

/** Screenshots of each step, kept for review (gitignored). */
export const JOURNEYS = "test-results/journeys";

export interface DonationSite {
  /** The shared build: read it, never write to it. */
  built: SharedSite;
  site: StaticServer;
  api: TestPaymentsService;
  browser: Browser;
  /** The file's donor profile: payments to the file's service, Stripe.js the stand-in, 10 s per action. */
  context: BrowserContext;
  /** The Stripe.js stand-in of `context`. */
  stripe: StripeStandIn;
  /** Another profile made as `context` is; `onRequest` sees each payments request as it is sent on. */
  donorContext(
    onRequest?: (method: string, path: string) => void,
  ): Promise<{ context: BrowserContext; stripe: StripeStandIn }>;
  /** Opens `path` in `profile` (the file's `context` by default) once the donation island is ready. */
  open(path: string, profile?: BrowserContext): Promise<{ page: Page; seen: PageProblems }>;
  /** The POST /donations requests the service has answered, oldest first. */
  posts(): TestPaymentsService["requests"];
  /** What Stripe.js does with the publishable key: confirm the intent with a test card, at Stripe. */
  confirmWithStripe(clientSecret: string, card?: string): Promise<void>;
}

/**
 * The file's donation site, started in its `beforeAll` and stopped in its `afterAll`; its fields are
 * there from the first test on.
 */
export function donationSiteForThisFile(): DonationSite {
  const donation = {
    async donorContext(onRequest) {
      const context = await isolatedContext(donation.browser);
      // A failing step should say which one, before the test's own timeout.
      context.setDefaultTimeout(10_000);
      // The tag manager is a third party; an empty script keeps the console clean.
      proxyOf(context).answer("https://www.googletagmanager.com/", () => ({
        headers: { "content-type": "text/javascript" },
        body: "",
      }));
      await routePaymentsTo(context, donation.api.url, onRequest);
      return { context, stripe: await installStripeStandIn(context, { stripeApiUrl: donation.api.stripe.url }) };
    },
    async open(path, profile = donation.context) {
      const page = await profile.newPage();
      const seen = watchProblems(page);
      await page.goto(donation.site.url + path);
      // Hydrated ("true"), or waiting for the donor's first use ("on-first-use": nothing kept or carried
      // in the address, so the server's markup is the form as it starts; the first fill hydrates it).
      await page.waitForSelector('[data-island="donation"][data-hydrated]');
      // The restore-from-storage effect runs right after hydration.
      await page.waitForFunction(() => document.querySelector("form[aria-labelledby]") !== null);
      return { page, seen };
    },
    posts: () => donation.api.requests.filter((r) => r.method === "POST" && r.path === "/donations"),
    async confirmWithStripe(clientSecret, card = "4242424242424242") {
      const intent = clientSecret.split("_secret_")[0]!;
      const response = await fetch(`${donation.api.stripe.url}/v1/payment_intents/${intent}/confirm`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: TEST_PUBLISHABLE_KEY,
          client_secret: clientSecret,
          "payment_method_data[type]": "card",
          "payment_method_data[card][number]": card,
          "payment_method_data[card][exp_month]": "12",
          "payment_method_data[card][exp_year]": "2034",
          "payment_method_data[card][cvc]": "123",
        }),
      });
      expect(response.status).toBe(200);
      await donation.api.stripe.settled();
    },
  } as DonationSite;

  beforeAll(async () => {
    [donation.api, donation.built, donation.browser] = await Promise.all([
      startTestPaymentsService(),
      sharedSampleSite("payments-unreachable"),
      launchBrowser(),
    ]);
    donation.site = await startStaticServer({ root: donation.built.outDir });
    ({ context: donation.context, stripe: donation.stripe } = await donation.donorContext());
  }, 180_000);

  afterAll(async () => {
    await donation.context?.close();
    await donation.browser?.close();
    await donation.site?.stop();
    await donation.api?.stop();
  });

  return donation;
}

/**
 * Waits for the card step after "Continue to payment" (or "Try again"). Without it, the test fails
 * with what the form told the donor (the payments service unreachable, Stripe.js not loaded), not
 * only with a time-out waiting for the card field.
 */
export async function cardStep(page: Page): Promise<void> {
  try {
    await page.getByLabel("Card number").waitFor();
  } catch (error) {
    const alert = page.locator(".don-alert");
    const said = (await alert.count()) > 0 ? await alert.textContent() : null;
    throw said ? new Error(`No card step; the form says: ${said}`, { cause: error }) : error;
  }
}

export async function payWithCard(page: Page, card = "4242 4242 4242 4242"): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 30");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^(Give|Save card)/ }).click();
}

/** The thank-you page after paying: its reference, in the donor's form of it. */
export async function expectThankYou(page: Page): Promise<string> {
  await page.waitForURL(/\/pay\/thank-you\/\?donation=don_[0-9a-f]+&(payment|setup)_intent=/);
  const reference = page.locator(".thanks-reference strong");
  await reference.waitFor();
  const text = (await reference.textContent())!;
  expect(text).toMatch(/^NZF-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  return text;
}

/** Tabs until the focused element's label (or text) matches, as a keyboard user would. */
export async function tabTo(page: Page, label: string | RegExp): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const current = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) || el?.textContent || "";
    });
    if (typeof label === "string" ? current.startsWith(label) : label.test(current)) return;
  }
  throw new Error(`Tab never reached "${label}"`);
}

export function noProblems(seen: PageProblems): void {
  expect([...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests]).toEqual([]);
}

/** Where an element sits in the viewport, and whether it has focus. */
export const placeOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return {
        top: Math.round(r.top),
        bottom: Math.round(r.bottom),
        focused: el === document.activeElement,
        text: el.textContent,
      };
    });
