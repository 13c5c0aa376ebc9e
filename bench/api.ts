/**
 * Payments service benchmark (`npm run bench -- api`): the real service (src/api/) on PGlite in a
 * data folder on disk, with the Stripe API stand-in as Stripe (its webhook delivery off, so the
 * webhook figures are the service's own). Prints p50/p99 of POST /donations (two Stripe calls each:
 * the customer for a new e-mail, then the PaymentIntent) and of POST /stripe/webhook (a signed
 * payment_intent.succeeded each), one request at a time; requests per second with 50 concurrent
 * clients; and checks nothing was lost: donations in the database = 201 answers, paid ones = 200s.
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import Stripe from "stripe";
import { startApiServer } from "../src/api/node-server.js";
import { silentLogger } from "../src/core/logger.js";
import { startStripeStandIn } from "../src/stand-ins/stripe/index.js";

const SECRET = "whsec_BenchApi0123456789";
const KEY = "sk_test_BenchApi0123456789";
const CLIENTS = 50;

const ms = (v: number) => `${v.toFixed(1)} ms`;
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

export async function benchApi(options: {
  root: string;
  sequential?: number;
  concurrent?: number;
  print?: (line: string) => void;
}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const sequential = options.sequential ?? 200;
  const concurrent = options.concurrent ?? 1000;
  const dir = await mkdtemp(join(options.root, ".nzf-cache", "bench-api-"));
  const stripe = await startStripeStandIn({ webhookSecret: SECRET });
  const server = await startApiServer({
    port: 0,
    dataDir: join(dir, "data"),
    env: { STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: stripe.url },
    logger: silentLogger,
  });
  try {
    let n = 0;
    const body = () =>
      JSON.stringify({
        fund: "sadaqah",
        amountCents: 5_000 + (n % 100),
        currency: "AUD",
        frequency: "once",
        anonymous: false,
        coverFees: true,
        donor: { firstName: "Bench", lastName: "Donor", email: `donor${n++ % 300}@example.com`, phone: "0412 345 678" },
      });
    const created: { donationId: string; clientSecret: string; totalCents: number }[] = [];
    let created2xx = 0;
    async function post(): Promise<number> {
      const started = performance.now();
      const res = await fetch(`${server.url}/donations`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
        body: body(),
      });
      const text = await res.text();
      if (res.status === 201) {
        created2xx++;
        created.push(JSON.parse(text) as (typeof created)[number]);
      }
      return performance.now() - started;
    }
    let paid2xx = 0;
    async function webhook(d: (typeof created)[number]): Promise<number> {
      const intentId = d.clientSecret.split("_secret_")[0]!;
      const payload = JSON.stringify({
        id: `evt_bench_${randomUUID().replace(/-/g, "")}`,
        object: "event",
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        type: "payment_intent.succeeded",
        data: {
          object: {
            id: intentId,
            object: "payment_intent",
            amount: d.totalCents,
            amount_received: d.totalCents,
            currency: "aud",
            status: "succeeded",
            payment_method: "pm_bench",
            metadata: { donation_id: d.donationId, revision: "1" },
          },
        },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
      const started = performance.now();
      const res = await fetch(`${server.url}/stripe/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        body: payload,
      });
      await res.text();
      if (res.status === 200) paid2xx++;
      return performance.now() - started;
    }
    async function together<T>(items: T[], run: (item: T) => Promise<number>): Promise<number> {
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < items.length) await run(items[next++]!);
        }),
      );
      return (items.length / (performance.now() - started)) * 1000;
    }

    for (let i = 0; i < 10; i++) await post(); // warm-up: the connection, the JIT, the first customers
    const postTimes: number[] = [];
    for (let i = 0; i < sequential; i++) postTimes.push(await post());
    print(
      `api     POST /donations, one at a time (${sequential}): p50 ${ms(quantile(postTimes, 0.5))}, p99 ${ms(quantile(postTimes, 0.99))}`,
    );
    const postRate = await together(
      Array.from({ length: concurrent }, () => 0),
      () => post(),
    );
    print(`api     POST /donations, ${CLIENTS} clients (${concurrent}): ${postRate.toFixed(0)} requests/s`);

    const hookTimes: number[] = [];
    for (const d of created.slice(0, sequential)) hookTimes.push(await webhook(d));
    print(
      `api     POST /stripe/webhook, one at a time (${sequential}): p50 ${ms(quantile(hookTimes, 0.5))}, p99 ${ms(quantile(hookTimes, 0.99))}`,
    );
    const hookRate = await together(created.slice(sequential), webhook);
    print(
      `api     POST /stripe/webhook, ${CLIENTS} clients (${created.length - sequential}): ${hookRate.toFixed(0)} requests/s`,
    );

    const db = server.deps.db;
    const count = async (paid: boolean) =>
      Number(
        (
          await db
            .selectFrom("donations")
            .select((e) => e.fn.countAll().as("n"))
            .$if(paid, (q) => q.where("status", "=", "succeeded"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [inDb, paidInDb] = [await count(false), await count(true)];
    print(
      `api     nothing lost: ${inDb} donations in the database for ${created2xx} answers 201; ${paidInDb} paid for ${paid2xx} webhooks answered 200 ${inDb === created2xx && paidInDb === paid2xx ? "(equal)" : "(DIFFERENT)"}`,
    );
    if (inDb !== created2xx || paidInDb !== paid2xx) process.exitCode = 1;
  } finally {
    await server.stop();
    await stripe.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
