/**
 * Donors give with PayPal, in real Chromium with the site's generated headers enforced (the CSP
 * with PayPal's hosts): the built site on loopback, the payments service (src/api/, on PGlite) with
 * its local PayPal provider, and a stand-in for PayPal's SDK served at its real address. The SDK is requested only once the
 * donor has chosen PayPal and continued; each failure says what happened and what to do, keeps the
 * form, and PayPal never takes a gift twice. The last part runs the service as production does,
 * with PayPal's official server SDK, against the PayPal REST stand-in (src/stand-ins/paypal/) that
 * sends it signed webhooks: a gift approved in two tabs is captured once and paid by PayPal's event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, watchProblems, type PageProblems } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { installPayPalStandIn, type PayPalStandIn } from "../support/paypal-stand-in.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  type TestPaymentsService,
} from "../support/payments-service.js";
import { installStripeStandIn } from "../support/stripe-stand-in.js";
import { PAYPAL_MESSAGES } from "../../src/payments/paypal.js";
import { fillDonor as fillDonorFields } from "../support/donation-request.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ApiDeps } from "../../src/api/deps.js";
import { readPayPalSettings } from "../../src/api/paypal/settings.js";
import { createPayPalApi, type PayPalApi } from "../../src/api/paypal/sdk.js";
import { createSdkPayPal } from "../../src/api/paypal/sdk-provider.js";
import { receiptsOf } from "../../src/api/receipts/issue.js";
import { createReceiptsService } from "../../src/api/receipts/service.js";
import { readReceiptSettings } from "../../src/receipts/settings.js";
import { type PayPalStandIn as RestPayPal, startPayPalStandIn } from "../../src/stand-ins/paypal/server.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";

const JOURNEYS = "test-results/journeys";
const CLIENT_ID = "AtestPayPalClientId-0123456789_abcdefghij";
let fixture: Fixture;
let site: StaticServer;
let api: TestPaymentsService;
let browser: Browser;
let context: BrowserContext;
let paypal: PayPalStandIn;
const violations: string[] = [];

beforeAll(async () => {
  api = await startTestPaymentsService();
  fixture = await createFixture({ sample: true });
  await fixture.run({
    publicConfig: {
      payments: { apiUrl: api.url, publishableKey: TEST_PUBLISHABLE_KEY, paypalClientId: CLIENT_ID },
    },
  });
  // As `nzf-build preview` serves it (S3 behind CloudFront): the site's own `_headers` applied.
  site = await startPreviewServer({ root: fixture.config.outDir, host: "127.0.0.1", port: 0 });
  browser = await launchBrowser();
  ({ context, paypal } = await donorContext());
  await mkdir(JOURNEYS, { recursive: true });
}, 240_000);

/**
 * A donor's browser: Stripe's and PayPal's scripts replaced at the network, CSP violations
 * reported, axe-core served from the site's origin (the policy allows no inline script).
 */
async function donorContext(
  options: Parameters<typeof installPayPalStandIn>[1] = {},
): Promise<{ context: BrowserContext; paypal: PayPalStandIn }> {
  const context = await isolatedContext(browser);
  context.setDefaultTimeout(10_000);
  await installStripeStandIn(context, { stripeApiUrl: api.stripe.url });
  const paypal = await installPayPalStandIn(context, options);
  await context.exposeBinding("__reportCsp", ({ page }, text: string) => violations.push(`${page.url()}: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const text = `${e.violatedDirective} blocked ${e.blockedURI || "inline"}`;
      void (window as unknown as { __reportCsp(t: string): Promise<void> }).__reportCsp(text);
    });
  });
  return { context, paypal };
}

/** axe-core from the site's own origin, which the policy allows (axe.ts loadAxe). */
const axeUnderCsp = (page: Page) => axeViolations(page);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await site?.stop();
  await api?.stop();
  await fixture?.cleanup();
});

async function open(
  path: string,
  viewport = { width: 390, height: 844 },
  on: BrowserContext = context,
): Promise<{ page: Page; seen: PageProblems }> {
  const page = await on.newPage();
  await page.setViewportSize(viewport);
  const seen = watchProblems(page);
  await page.goto(site.url + path);
  await page.waitForSelector('[data-island="donation"][data-hydrated]');
  return { page, seen };
}

const fillDonor = (page: Page) =>
  fillDonorFields(page, { firstName: "Yusuf", lastName: "Ali", email: "yusuf@example.com", phone: "0412 345 678" });

/** Chooses PayPal and continues: the PayPal step with its button ready. */
async function toPayPal(page: Page) {
  await page.getByLabel("PayPal", { exact: true }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.locator("button.paypal-stand-in").waitFor();
}

const alertText = (page: Page) => page.locator(".don-pay [role=alert]").textContent();

describe("PayPal in Chromium, CSP enforced", { timeout: 90_000 }, () => {
  for (const [name, viewport] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 800 }],
  ] as const) {
    it(`${name}: a one-off zakat gift through PayPal, the SDK loaded only once chosen; thank-you with the reference`, async () => {
      const before = paypal.urls.length;
      const { page, seen } = await open("/pay/zakat/?amount=250", viewport);
      await fillDonor(page);
      await page.getByLabel("Card", { exact: true }).waitFor();
      // Not loaded with the page, nor while the donor types.
      expect(paypal.urls.length).toBe(before);
      await toPayPal(page);
      expect(paypal.urls.length).toBe(before + 1);
      const url = new URL(paypal.urls.at(-1)!);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        "client-id": CLIENT_ID,
        currency: "AUD",
        intent: "capture",
        "disable-funding": "venmo",
      });
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Check your gift and pay");
      expect(formatViolations(`PayPal step ${name}`, await axeUnderCsp(page))).toBe("");
      await page.screenshot({ path: `${JOURNEYS}/paypal-${name}-1-step.png` });
      const captured = api.paypal.captures().length;
      await page.locator("button.paypal-stand-in").click();
      await page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
      await page.locator(".thanks-reference strong").waitFor();
      expect(await page.locator("main h1").textContent()).toBe("Thank you");
      expect(await page.locator(".thanks").innerText()).toMatch(/One payment of \$250\.00/);
      expect(api.paypal.captures().length).toBe(captured + 1);
      await page.screenshot({ path: `${JOURNEYS}/paypal-${name}-2-thank-you.png` });
      expect(violations).toEqual([]);
      expect([...seen.consoleErrors, ...seen.pageErrors, ...seen.failedRequests]).toEqual([]);
      await page.close();
    });
  }

  it("closed window, blocked pop-up, decline and a script that did not load: each said, the form kept, one capture", async () => {
    const { page, seen } = await open("/pay/sadaqah/?amount=40");
    await fillDonor(page);
    paypal.failNextLoads(1);
    await page.getByLabel("PayPal", { exact: true }).check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_script_failed);
    await page.screenshot({ path: `${JOURNEYS}/paypal-phone-3-script-failed.png` });
    await page.getByRole("button", { name: "Load PayPal again" }).click();
    await page.locator("button.paypal-stand-in").waitFor();

    await paypal.next(page, "cancel");
    await page.locator("button.paypal-stand-in").click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_cancelled);

    await paypal.next(page, "popup-blocked");
    await page.locator("button.paypal-stand-in").click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_popup_blocked);

    // Back to the form: everything as typed.
    await page.getByRole("button", { name: "Change my gift or details" }).click();
    expect(await page.getByLabel("First name").inputValue()).toBe("Yusuf");
    expect(await page.getByLabel("Amount (AUD)").inputValue()).toBe("40");
    expect(await page.getByLabel("PayPal", { exact: true }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.locator("button.paypal-stand-in").waitFor();

    const captured = api.paypal.captures().length;
    api.paypal.declineNextCaptures(1);
    await page.locator("button.paypal-stand-in").click();
    await expect.poll(() => alertText(page)).toBe(PAYPAL_MESSAGES.paypal_declined);
    expect(api.paypal.captures().length).toBe(captured);
    expect(formatViolations("PayPal step with an error", await axeUnderCsp(page))).toBe("");
    await page.screenshot({ path: `${JOURNEYS}/paypal-phone-4-declined.png` });
    // Approved again, and the callback fires twice: PayPal takes the gift once.
    await paypal.next(page, "approve-twice");
    await page.locator("button.paypal-stand-in").click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
    await page.locator(".thanks-reference strong").waitFor();
    expect(api.paypal.captures().length).toBe(captured + 1);
    expect(violations).toEqual([]);
    // The aborted script and the declined capture are the test's own doing; nothing else failed.
    const expected = (r: string) =>
      r.startsWith("https://www.paypal.com/sdk/js") || /\/paypal\/capture(: HTTP 402|.*402)/.test(r);
    expect(seen.failedRequests.filter((r) => !expected(r))).toEqual([]);
    expect(seen.failedRequests.filter((r) => r.endsWith("HTTP 402"))).toHaveLength(1);
    expect([
      ...seen.consoleErrors.filter((r) => !expected(r) && !/402|ERR_EMPTY_RESPONSE/.test(r)),
      ...seen.pageErrors,
    ]).toEqual([]);
    await page.close();
  });

  it("monthly sadaqah is a PayPal subscription; a Friday gift says plainly it is cards only; card still works", async () => {
    const { page } = await open("/pay/sadaqah/?amount=25");
    await fillDonor(page);
    await page.getByLabel("Monthly, until you cancel").check();
    await toPayPal(page);
    const url = new URL(paypal.urls.at(-1)!);
    expect([url.searchParams.get("intent"), url.searchParams.get("vault")]).toEqual(["subscription", "true"]);
    await page.locator("button.paypal-stand-in").click();
    await page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
    await page.locator(".thanks-reference strong").waitFor();
    expect(await page.locator(".thanks").innerText()).toMatch(/each month, from .+ until you cancel/);
    await page.close();

    const friday = await open("/pay/jumuah-giving/?amount=20");
    await friday.page.getByLabel("Every Friday").check();
    const choice = friday.page.locator("fieldset", { has: friday.page.locator("legend", { hasText: "How to pay" }) });
    await expect
      .poll(() => choice.innerText())
      .toContain("Every Friday: paid by card only. PayPal takes one-off, monthly and instalment gifts.");
    expect(await friday.page.getByLabel("PayPal", { exact: true }).count()).toBe(0);
    await choice.scrollIntoViewIfNeeded();
    await friday.page.screenshot({ path: `${JOURNEYS}/paypal-phone-5-cards-only.png` });
    await friday.page.close();

    // Pay by card instead, from the PayPal step.
    const card = await open("/pay/zakat/?amount=60");
    await fillDonor(card.page);
    await toPayPal(card.page);
    await card.page.getByRole("button", { name: "Pay by card instead" }).click();
    expect(await card.page.getByLabel("Card", { exact: true }).isChecked()).toBe(true);
    await card.page.getByRole("button", { name: "Continue to payment" }).click();
    await card.page.getByLabel("Card number").waitFor();
    await card.page.close();
    expect(violations).toEqual([]);
  });
});

/**
 * PayPal's webhook deliveries, held back until `release()`: PayPal sends its events when it likes,
 * so the donor's tabs are checked before "paid" arrives. While held, each delivery is refused with
 * 503 and PayPal's stand-in tries again (as PayPal retries a failed delivery); once released, each
 * is passed to the service as it came (body and PAYPAL-TRANSMISSION-* headers) and its answer
 * returned to PayPal.
 */
async function startWebhookGate(target: string): Promise<{ url: string; release(): void; stop(): Promise<void> }> {
  let open = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      if (!open) return void res.writeHead(503).end();
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name.startsWith("paypal-") || name === "content-type"),
      ) as Record<string, string>;
      try {
        const answer = await fetch(target, { method: "POST", headers, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    release() {
      open = true;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("PayPal through its server SDK: one gift approved in two tabs", { timeout: 180_000 }, () => {
  let rest: RestPayPal;
  let gate: Awaited<ReturnType<typeof startWebhookGate>>;
  let catcher: SmtpCatcher;
  let donor: BrowserContext;
  let sdk: PayPalApi;
  /** The REST calls the service made that the SDK has no method for (the webhook's verification among them). */
  const restCalls: string[] = [];
  /** The service's capture calls to PayPal (through the SDK), by order id. */
  const captureCalls: string[] = [];
  let before: Pick<ApiDeps, "paypal" | "paypalApi" | "receipts">;

  beforeAll(async () => {
    catcher = await startSmtpCatcher();
    gate = await startWebhookGate(`${api.url}/paypal/webhook`);
    // PayPal retries a refused delivery; here every 250 ms for up to a minute while the gate is shut.
    rest = await startPayPalStandIn({ webhookUrl: gate.url, webhookRetryDelaysMs: Array(240).fill(250) });
    // The service's PayPal as production makes it from its settings: the official SDK, here pointed at the stand-in.
    const settings = readPayPalSettings({
      NZF_PAYPAL_CLIENT_ID: rest.clientId,
      NZF_PAYPAL_CLIENT_SECRET: rest.clientSecret,
      NZF_PAYPAL_ENVIRONMENT: "sandbox",
      NZF_PAYPAL_WEBHOOK_ID: rest.webhookId,
      NZF_PAYPAL_API_BASE: rest.url,
    })!;
    sdk = createPayPalApi(settings);
    const captureOrder = sdk.orders.captureOrder.bind(sdk.orders);
    sdk.orders.captureOrder = (...args: Parameters<typeof captureOrder>) => {
      captureCalls.push(args[0].id);
      return captureOrder(...args);
    };
    const call = sdk.rest.bind(sdk);
    sdk.rest = (method, path, ...more) => {
      restCalls.push(`${method} ${path}`);
      return call(method, path, ...more);
    };
    before = { paypal: api.deps.paypal, paypalApi: api.deps.paypalApi, receipts: api.deps.receipts };
    api.deps.paypal = createSdkPayPal(sdk);
    api.deps.paypalApi = sdk;
    api.deps.receipts = createReceiptsService(api.db, {
      settings: readReceiptSettings({
        NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
        NZF_FOUNDATION_ABN: "51 824 753 556",
        NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
        NZF_MAIL_TRANSPORT: "smtp",
        NZF_SMTP_URL: catcher.smtpUrl,
      }),
    });
    // The donor approves in PayPal's window: PayPal records it, as the stand-in's approveOrder does.
    ({ context: donor } = await donorContext({
      approve: (id, kind) => void (kind === "order" ? rest.approveOrder(id) : rest.approveSubscription(id)),
    }));
  }, 120_000);

  afterAll(async () => {
    await donor?.close();
    api?.deps.receipts?.close();
    if (before) Object.assign(api.deps, before);
    gate?.release();
    await rest?.settled();
    await Promise.all([rest?.stop(), gate?.stop(), catcher?.stop()]);
  });

  const referenceOf = (page: Page) => page.locator(".don-pay .don-hint strong").textContent();
  const statusOf = async (donationId: string) =>
    ((await (await fetch(`${api.url}/donations/${donationId}`)).json()) as { status: string }).status;

  it("is captured once; both tabs thank the donor for the one gift; PayPal's verified event makes it paid and e-mails one receipt", async () => {
    // The first tab: the gift, the donor, PayPal chosen; the donation and its PayPal step.
    const first = await open("/pay/zakat/?amount=250", undefined, donor);
    await fillDonor(first.page);
    await toPayPal(first.page);
    const reference = await referenceOf(first.page);
    expect(reference).toMatch(/^NZF-/);

    // The second tab, as the browser duplicates one: the same page with the same session (the form as typed).
    const second = await open("/pay/zakat/?amount=250", undefined, donor);
    const session = await first.page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    await second.page.evaluate((entries) => {
      for (const [key, value] of JSON.parse(entries) as [string, string][]) sessionStorage.setItem(key, value);
    }, session);
    await second.page.reload();
    await second.page.waitForSelector('[data-island="donation"][data-hydrated]');
    expect(await second.page.getByLabel("First name").inputValue()).toBe("Yusuf");
    expect(await second.page.getByLabel("PayPal", { exact: true }).isChecked()).toBe(true);
    await second.page.getByRole("button", { name: "Continue to payment" }).click();
    await second.page.locator("button.paypal-stand-in").waitFor();
    // The same gift, not a second one.
    expect(await referenceOf(second.page)).toBe(reference);

    // The donor approves in both tabs, at once.
    await Promise.all([
      first.page.locator("button.paypal-stand-in").click(),
      second.page.locator("button.paypal-stand-in").click(),
    ]);
    for (const tab of [first, second]) {
      await tab.page.waitForURL(/\/pay\/thank-you\/\?donation=don_/);
      await tab.page.locator(".thanks-reference strong").waitFor();
    }
    const donationId = new URL(first.page.url()).searchParams.get("donation")!;
    expect(new URL(second.page.url()).searchParams.get("donation")).toBe(donationId);
    // Both tabs: thanks for the one gift, its reference, and (PayPal's event not in yet) the receipt to follow.
    for (const tab of [first, second]) {
      expect(await tab.page.locator("main h1").textContent()).toBe("Thank you");
      expect(await tab.page.locator(".thanks-reference strong").textContent()).toBe(reference);
      const text = await tab.page.locator(".thanks").innerText();
      expect(text).toMatch(/One payment of \$250\.00/);
      expect(text).toContain("Your payment is being processed.");
      expect(text).toContain("We will e-mail your receipt as soon as the payment has gone through.");
    }
    await second.page.screenshot({ path: `${JOURNEYS}/paypal-sdk-two-tabs-thank-you.png` });

    // PayPal was asked once (the second tab waited for the first's answer) and took the money once:
    // one capture on the order, one PAYMENT.CAPTURE.COMPLETED.
    const row = await api.db
      .selectFrom("donations")
      .select(["paypal_id", "status"])
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(captureCalls).toEqual([row.paypal_id]);
    const { result: order } = await sdk.orders.getOrder({ id: row.paypal_id! });
    expect(order.status).toBe("COMPLETED");
    expect(order.purchaseUnits?.[0]?.payments?.captures).toHaveLength(1);
    const captureId = order.purchaseUnits![0]!.payments!.captures![0]!.id;
    const completed = () => rest.deliveries().filter((d) => d.event.event_type === "PAYMENT.CAPTURE.COMPLETED");
    expect(completed().map((d) => d.event.resource.id)).toEqual([captureId]);
    // The browser's word is not "paid": until PayPal's signed event, the gift is processing and no receipt is sent.
    expect(row.status).toBe("processing");
    expect(catcher.messages()).toEqual([]);

    // PayPal's event arrives, signed; the service has PayPal verify it, marks the gift paid and e-mails the receipt.
    gate.release();
    await rest.settled();
    expect(completed()[0]!.attempts.at(-1)!.status).toBe(200);
    expect(restCalls).toContain("POST /v1/notifications/verify-webhook-signature");
    expect(await statusOf(donationId)).toBe("succeeded");
    const mail = await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    expect(mail.to).toBe("yusuf@example.com");
    expect(mail.text).toMatch(/^Amount: +\$250\.00$/m);
    expect(mail.text).toMatch(/^Paid with: +PayPal$/m);
    expect(mail.text).toContain(reference!);
    expect(await receiptsOf(api.db, donationId)).toHaveLength(1);
    const charges = await api.db.selectFrom("charges").selectAll().where("donation_id", "=", donationId).execute();
    expect(charges.map((c) => [c.id, c.amount_cents])).toEqual([[captureId, 25_000]]);

    // Either tab, looked at again: received, the receipt on its way.
    await first.page.reload();
    await first.page.locator(".thanks-reference strong").waitFor();
    const now = await first.page.locator(".thanks").innerText();
    expect(now).toContain("Your gift is received.");
    expect(now).toContain("Your receipt is on its way to your e-mail.");
    // Sent once: nothing more comes.
    await rest.settled();
    expect(catcher.messages().filter((m) => m.subject.startsWith("Your receipt"))).toHaveLength(1);

    expect(violations).toEqual([]);
    for (const tab of [first, second]) {
      expect([...tab.seen.consoleErrors, ...tab.seen.pageErrors, ...tab.seen.failedRequests]).toEqual([]);
      await tab.page.close();
    }
  });
});
