/**
 * `npm start` with a user pool shows a working account page: the compiled CLI (`bin/nzf-build
 * --watch`) in a new process, configured for cognito-local (through the test bridge), starts the
 * local payments service, which serves the account API at /graphql on its own database, and
 * builds the site with that URL. In Chromium a donor signs in on the watch site, gives through the
 * service while signed in (the local Stripe stand-in takes the card and sends the signed webhook),
 * and finds the paid gift in the history; its receipt e-mail is at the SMTP catcher whose address
 * watch mode printed. One Ctrl+C stops everything.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStep, pressButton, typeInto } from "../support/account-page.js";
import { isolatedContext, launchBrowser } from "../support/browser.js";
import { layMigratedDataDir } from "../support/api-db.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";

let cognito: CognitoLocal;
let browser: Browser;
let folder: string | undefined;
let out: string;
let child: ChildProcess | undefined;
let output = "";

const EMAIL = "zainab@example.org";
const PASSWORD = "zainab long phrase";

function waitFor(pattern: RegExp, timeoutMs = 120_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const match = pattern.exec(output);
      if (match) return resolve(match);
      if (child?.exitCode !== null) return reject(new Error(`watch mode exited:\n${output}`));
      if (Date.now() - started > timeoutMs) return reject(new Error(`no ${pattern}:\n${output}`));
      setTimeout(check, 100);
    };
    check();
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { "content-type": "application/json", ...headers } },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c));
        res.on("end", () => ok({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify(body));
  });
}

beforeAll(async () => {
  [cognito, browser] = await Promise.all([startCognitoLocal(), launchBrowser()]);
  await cognito.call("SignUp", {
    ClientId: cognito.clientId,
    Username: EMAIL,
    Password: PASSWORD,
    UserAttributes: [{ Name: "email", Value: EMAIL }],
  });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: EMAIL, ConfirmationCode: cognito.code });
  // The watch's payments service keeps its database beside the output (`<out>.nzf-data`,
  // src/watch/run-watch.ts): both in one temporary folder, removed afterwards. The database is laid
  // from the run's migrated dump, as a service that has run before leaves it, so the watch opens it
  // instead of making one and migrating it (api-db.ts; a watch's first start on an empty folder is
  // test/watch/watch-cli.test.ts's).
  folder = await mkdtemp(join(tmpdir(), "nzf-watch-account-"));
  out = join(folder, "site");
  await layMigratedDataDir(`${out}.nzf-data`);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (/^(PAYMENTS_|STRIPE_|NZF_)/.test(key)) delete env[key];
  Object.assign(env, {
    NZF_COGNITO_USER_POOL_ID: cognito.userPoolId,
    NZF_COGNITO_CLIENT_ID: cognito.clientId,
    NZF_COGNITO_ENDPOINT: cognito.endpoint,
    NZF_AUTH_FLOW: "USER_PASSWORD_AUTH",
  });
  child = spawn(process.execPath, [join(PROJECT_ROOT, "bin", "nzf-build"), "--watch", "--port", "0", "--out", out], {
    cwd: PROJECT_ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => (output += c));
  child.stderr!.on("data", (c: Buffer) => (output += c));
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  await browser?.close();
  await cognito?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe("npm start with a user pool", () => {
  it("starts the local account API, and a gift made while signed in shows on /account/", async () => {
    const api = (await waitFor(
      /accounts: local account API at (http:\/\/127\.0\.0\.1:(\d+)\/graphql) \(in the payments service/,
    ))!;
    const payments = (await waitFor(/payments: local payments API at (http:\/\/127\.0\.0\.1:\d+)/))![1]!;
    const standIn = (await waitFor(/local Stripe stand-in at (http:\/\/127\.0\.0\.1:\d+)/))![1]!;
    expect(api[1]).toBe(`${payments}/graphql`);
    const site = (await waitFor(/serving \S+ at (http:\/\/127\.0\.0\.1:\d+)\//))![1]!;
    const html = await (await fetch(`${site}/account/`)).text();
    expect(html).toContain(JSON.stringify(api[1]).slice(1, -1));

    const context = await isolatedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${site}/account/`);
    await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
    await expectStep(page, "Sign in", { focused: false });
    await typeInto(page, "E-mail address", EMAIL);
    await typeInto(page, "Password", PASSWORD);
    await pressButton(page, "Sign in");
    await expectStep(page, "Your account");
    await expect
      .poll(() => page.locator(".account-giving").innerText(), { timeout: 15_000 })
      .toContain("No donations yet.");

    // A gift through the local payments API with the donor's token, as the form would send it.
    const accessToken = decodeURIComponent(
      (await context.cookies(site)).find((c) => c.name.endsWith(".accessToken"))!.value,
    );
    const created = await post(
      `${payments}/donations`,
      { authorization: `Bearer ${accessToken}`, "idempotency-key": randomUUID(), origin: site },
      {
        fund: "sadaqah",
        amountCents: 5000,
        currency: "AUD",
        frequency: "once",
        anonymous: false,
        coverFees: false,
        donor: { firstName: "Zainab", lastName: "Omar", email: EMAIL, phone: "0412 345 678" },
      },
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    // Not paid yet: a checkout never paid is nobody's history.
    await page.reload();
    await expectStep(page, "Your account", { focused: false });
    await expect
      .poll(() => page.locator(".account-giving").innerText(), { timeout: 15_000 })
      .toContain("No donations yet.");
    // The card, as Stripe.js would confirm it; the stand-in sends the signed webhook to the service.
    const intent = String(created.json.clientSecret).split("_secret_")[0];
    const confirmed = await new Promise<{ status: number; text: string }>((ok, fail) => {
      const req = httpRequest(
        `${standIn}/v1/payment_intents/${intent}/confirm`,
        {
          method: "POST",
          headers: {
            authorization: "Bearer sk_test_LocalStandIn0000000000",
            "content-type": "application/x-www-form-urlencoded",
          },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c));
          res.on("end", () => ok({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", fail);
      req.end(`payment_method=pm_card_visa&return_url=${encodeURIComponent(`${site}/pay/thank-you/`)}`);
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    await page.reload();
    await expectStep(page, "Your account", { focused: false });
    await expect.poll(() => page.locator(".account-donation").count(), { timeout: 15_000 }).toBe(1);
    const row = await page.locator(".account-donation").innerText();
    expect(row).toContain("Sadaqah");
    expect(row).toContain("$50.00");
    expect(row).toContain(created.json.reference);
    expect(row).toContain("Paid");
    await context.close();

    // The receipt, e-mailed from the webhook, kept by watch mode's SMTP catcher where the log said.
    const mailbox = (await waitFor(/e-mails are kept, not sent: read them at (http:\/\/127\.0\.0\.1:\d+\/)/))![1]!;
    type Caught = { to: string; subject: string; text: string };
    const receipts = async () =>
      ((await (await fetch(`${mailbox}messages.json`)).json()) as Caught[]).filter(
        (m) => m.to === EMAIL && m.subject.startsWith("Your receipt"),
      );
    await expect.poll(async () => (await receipts()).length, { timeout: 15_000 }).toBe(1);
    const [receipt] = await receipts();
    expect(receipt!.text).toMatch(/^Amount: +\$50\.00$/m);
    expect(receipt!.text).toContain("Zainab Omar");

    process.kill(-child!.pid!, "SIGINT");
    await new Promise((resolve) => child!.once("exit", resolve));
    expect(await listening(Number(api[2]))).toBe(false);
  }, 180_000);
});
