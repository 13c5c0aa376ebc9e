/**
 * The Lambda's scheduled and invoked entry points as AWS calls them (src/api/lambda.ts, issue 39):
 * `runJobs` with the event an EventBridge rule sends ("Scheduled Event"), `sendUpdates` with the
 * update itself as the event (what EventBridge Scheduler's target input or `aws lambda invoke
 * --payload` delivers). The function starts from its environment alone, as deployed: PGlite
 * ("memory://" in NZF_DATA_DIR, in place of RDS), the Stripe API stand-in as Stripe, an SMTP catcher
 * as the mail transport, the content from a local Prismic. Everything else reaches the function
 * through API Gateway's events (test/support/api-gateway.ts): the gifts, the sign-ups, Stripe's
 * signed webhooks. A due charge is charged once and a due update sent once, however often AWS
 * invokes them.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createStripeClient } from "../../src/api/stripe/client.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";
import { type StripeStandIn, startStripeStandIn } from "../../src/stand-ins/stripe/index.js";
import { type ApiGateway, type HttpHandler, startApiGateway } from "../support/api-gateway.js";
import { donationRequest } from "../support/donation-request.js";
import { TEST_MAIL_SETTINGS } from "../support/mailing-service.js";
import { TEST_PUBLISHABLE_KEY, TEST_SECRET_KEY, TEST_WEBHOOK_SECRET } from "../support/payments-service.js";
import { type PrismicStub, startPrismicStub } from "../support/prismic-stub.js";

// Thursday 3 December 2026, noon in Sydney; the Friday after, noon.
const THURSDAY = new Date("2026-12-03T01:00:00Z");
const FRIDAY = new Date("2026-12-04T01:00:00Z");

type Lambda = typeof import("../../src/api/lambda.js");
let lambda: Lambda;
let gateway: ApiGateway;
let stripe: StripeStandIn;
let catcher: SmtpCatcher;
let prismic: PrismicStub;

/** What an EventBridge rule (ScheduleExpression rate(15 minutes)) sends its target. */
const scheduledEvent = (at: Date) => ({
  version: "0",
  id: randomUUID(),
  "detail-type": "Scheduled Event",
  source: "aws.events",
  account: "123456789012",
  time: at.toISOString().replace(/\.\d{3}Z$/, "Z"),
  region: "ap-southeast-2",
  resources: ["arn:aws:events:ap-southeast-2:123456789012:rule/nzf-payments-JobsSchedule"],
  detail: {},
});
const lambdaContext = () => ({ awsRequestId: randomUUID(), functionName: "nzf-payments-JobsFunction" });

beforeAll(async () => {
  [stripe, catcher, prismic] = await Promise.all([
    startStripeStandIn({ webhookSecret: TEST_WEBHOOK_SECRET, publishableKey: TEST_PUBLISHABLE_KEY }),
    startSmtpCatcher(),
    startPrismicStub({ documents: [] }),
  ]);
  // The function's configuration: no Secrets Manager ARNs, so the settings are the environment's.
  Object.assign(process.env, {
    ...TEST_MAIL_SETTINGS,
    NZF_SMTP_URL: catcher.smtpUrl,
    NZF_DATA_DIR: "memory://",
    STRIPE_SECRET_KEY: TEST_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    PRISMIC_REPOSITORY: prismic.endpoint,
    NZF_API_ALLOWED_ORIGINS: "https://nzf.org.au",
  });
  delete process.env.DATABASE_URL;
  delete process.env.NZF_DATABASE_SECRET_ARN;
  delete process.env.NZF_STRIPE_SECRET_ARN;
  lambda = await import("../../src/api/lambda.js");
  gateway = await startApiGateway(lambda.handler as unknown as HttpHandler);
  // The unsubscribe links point at the API's public address, as deployed.
  process.env.PAYMENTS_API_URL = gateway.url;
  stripe.setWebhookUrl(`${gateway.url}/stripe/webhook`);
  // The cold start (the database migrated from nothing) before the tests, as AWS's init would.
  expect((await fetch(`${gateway.url}/donations/don_000000000000000000000000`)).status).toBe(404);
}, 120_000);
afterAll(async () => {
  vi.useRealTimers();
  await stripe?.settled();
  await Promise.all([gateway?.stop(), stripe?.stop(), catcher?.stop(), prismic?.stop()]);
});

const post = (path: string, body: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(body),
  });
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("lambda.sendUpdates, invoked with the update as its event", () => {
  it("sends a due update to each confirmed subscriber once, however often it is invoked", async () => {
    const reader = `reader-${randomUUID()}@example.com`;
    const pending = `pending-${randomUUID()}@example.com`;
    const consent = { source: "footer", consentText: "Send me NZF's news and appeals by e-mail.", website: "" };
    expect((await post("/updates", { email: reader, ...consent })).status).toBe(202);
    expect((await post("/updates", { email: pending, ...consent })).status).toBe(202);
    // Only the reader follows the link in their confirmation e-mail.
    const confirmation = await catcher.waitFor((m) => m.to === reader && m.subject.startsWith("Please confirm"));
    const link = /Yes, send me updates: (\S+)/.exec(confirmation.text)![1]!;
    // The function names its own address as API Gateway serves it: HTTPS (the stand-in is plain HTTP).
    const secure = gateway.url.replace(/^http:/, "https:");
    expect(link.startsWith(`${secure}/updates/confirm?token=`)).toBe(true);
    expect((await fetch(link.replace(secure, gateway.url))).status).toBe(200);

    const update = {
      id: `2027-ramadan-${randomUUID()}`,
      subject: "Ramadan 2027: our appeal opens",
      heading: "Ramadan is near",
      paragraphs: ["Our appeal opens on 8 February."],
    };
    const invoke = () => (lambda.sendUpdates as (e: unknown, c: unknown) => Promise<unknown>)(update, lambdaContext());
    expect(await invoke()).toEqual({ queued: 1, subscribers: 1 });
    const sent = await catcher.waitFor((m) => m.subject === update.subject);
    expect(sent.to).toBe(reader);
    expect(sent.text).toContain("Our appeal opens on 8 February.");
    // The same event again (a retried invocation): nobody gets it twice.
    expect(await invoke()).toEqual({ queued: 0, subscribers: 1 });
    await settle();
    expect(catcher.messages().filter((m) => m.subject === update.subject)).toHaveLength(1);
    // Its unsubscribe link works through the deployed API.
    const unsubscribe = /Unsubscribe: (\S+)/.exec(sent.text)![1]!;
    expect(unsubscribe.startsWith(`${gateway.url}/updates/unsubscribe?token=`)).toBe(true);
    expect((await fetch(unsubscribe, { method: "POST" })).status).toBe(200);
    expect(await invoke()).toEqual({ queued: 0, subscribers: 0 });
  });

  it("an update that would make a broken e-mail is refused with a coded error, nothing sent", async () => {
    const before = catcher.messages().length;
    const broken = {
      id: `broken-${randomUUID()}`,
      subject: "Line\r\nBcc: x@example.com",
      heading: "x",
      paragraphs: [],
    };
    await expect(
      (lambda.sendUpdates as (e: unknown, c: unknown) => Promise<unknown>)(broken, lambdaContext()),
    ).rejects.toMatchObject({ code: "API_UPDATE_INVALID" });
    await settle();
    expect(catcher.messages()).toHaveLength(before);
  });
});

describe("lambda.runJobs, invoked by the EventBridge rule", () => {
  it('charges an "every Friday" gift on its Friday once, whatever the number of invocations, with one receipt', async () => {
    // The function's clock (Date only: the timers stay real); Stripe's stand-in reads the same.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: THURSDAY });
    const email = `friday-${randomUUID()}@example.com`;
    const res = await post(
      "/donations",
      donationRequest({
        fund: "jumuah-giving",
        amountCents: 1_000,
        frequency: "weekly-friday",
        donor: { firstName: "Yusuf", lastName: "Ali", email, phone: "0412 345 678" },
      }),
    );
    expect(res.status).toBe(201);
    const created = (await res.json()) as { donationId: string; clientSecret: string; schedule: { date: string }[] };
    expect(created.schedule[0]!.date).toBe("2026-12-04");
    // The card saved as Stripe.js does; Stripe's signed event reaches the function through the gateway.
    const confirmed = await fetch(
      `${stripe.url}/v1/setup_intents/${created.clientSecret.split("_secret_")[0]}/confirm`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: TEST_PUBLISHABLE_KEY,
          client_secret: created.clientSecret,
          payment_method: "pm_card_visa",
        }),
      },
    );
    expect(confirmed.status).toBe(200);
    await stripe.settled();

    const runJobs = lambda.runJobs as (e: unknown, c: unknown) => Promise<{ charges: { charged: string[] } }>;
    // Thursday: nothing is due.
    expect((await runJobs(scheduledEvent(THURSDAY), lambdaContext())).charges.charged).toEqual([]);
    // Friday: the rule fires every 15 minutes; the first run charges, the others find it done.
    vi.setSystemTime(FRIDAY);
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push((await runJobs(scheduledEvent(new Date()), lambdaContext())).charges.charged);
      await stripe.settled();
    }
    expect(runs).toEqual([[`${created.donationId}/2026-12-04`], [], []]);

    const client = createStripeClient({ secretKey: TEST_SECRET_KEY, apiBase: stripe.url });
    const intents = await client.paymentIntents.search({ query: `metadata['donation_id']:'${created.donationId}'` });
    expect(intents.data.map((pi) => [pi.status, pi.amount])).toEqual([["succeeded", 1_000]]);
    // Paid by Stripe's signed event, accepted by the function; one receipt e-mailed.
    const paid = stripe.deliveries().filter((d) => d.type === "payment_intent.succeeded");
    expect(paid.map((d) => d.status)).toEqual([200]);
    const receipt = await catcher.waitFor((m) => m.to === email && m.subject.startsWith("Your receipt"));
    expect(receipt.text).toMatch(/^Date: +4 December 2026$/m);
    await settle();
    expect(catcher.messages().filter((m) => m.to === email && m.subject.startsWith("Your receipt"))).toHaveLength(1);
  });
});
