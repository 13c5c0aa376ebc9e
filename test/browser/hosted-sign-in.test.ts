/**
 * The hosted sign-in in real Chromium: the built /account/ page (sample site, its CSP enforced)
 * with NZF_COGNITO_HOSTED_DOMAIN pointing at the oidc-provider stand-in (test/support/hosted-ui.ts)
 * in front of cognito-local. The production code path is the one that talks to Cognito's hosted
 * domain: Amplify's signInWithRedirect, its state and PKCE, its token request, its hosted sign-out.
 *
 * Attacker first: an answer nobody started here, a forged state, a replayed code, a code issued to
 * another app client, an attacker's own code with their own PKCE challenge, a return path off the
 * site, a hosted domain answering with another pool's tokens. The time limits: 10 s for the
 * hosted answer, 3 s for the hosted sign-out to leave the page. Then the donor's walk by keyboard:
 * the hosted page and back to the page they came from, tokens in cookies only, axe clean at
 * 390x844 and 1280x800, and a sign-out that ends the hosted session too.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { startPreviewServer } from "../../src/server/preview-server.js";
import type { StaticServer } from "../../src/server/static-server.js";
import { expectAxeClean, expectStep, pressButton } from "../support/account-page.js";
import { isolatedContext, launchBrowser, watchProblems } from "../support/browser.js";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";
import { codeFor, pkce, startHostedUi, type HostedUi } from "../support/hosted-ui.js";

const HOSTED_BUTTON = "Sign in on the secure sign-in page";
const email = "hosted.donor@example.org";
const password = "a hosted zakat phrase";

let cognito: CognitoLocal;
let fixture: Fixture;
let server: StaticServer;
let browser: Browser;
let hosted: HostedUi;

beforeAll(async () => {
  [cognito, fixture, browser] = await Promise.all([
    startCognitoLocal(),
    createFixture({ sample: true }),
    launchBrowser(),
  ]);
  await cognito.call("SignUp", { ClientId: cognito.clientId, Username: email, Password: password });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: cognito.code });
  // The site's address is needed for the app client's callback URL before the build. Served as
  // `nzf-build preview` serves it: its own `_headers` (the CSP) applied, read on each request.
  server = await startPreviewServer({ root: fixture.config.outDir, host: "127.0.0.1", port: 0 });
  const back = [`${server.url}/account/`];
  hosted = await startHostedUi({ cognito, redirectUris: back, logoutUris: back });
  const auth = resolveAuthConfig({
    userPoolId: cognito.userPoolId,
    userPoolClientId: cognito.clientId,
    userPoolEndpoint: cognito.endpoint,
    authFlowType: "USER_PASSWORD_AUTH",
    hostedDomain: hosted.domain,
  });
  await fixture.run({ publicConfig: { auth } });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await hosted?.stop();
  await cognito?.stop();
  await fixture?.cleanup();
});

/** A fresh browser profile that accepts the stand-in's self-signed certificate. */
async function device(viewport = { width: 390, height: 844 }): Promise<BrowserContext> {
  return isolatedContext(browser, { ignoreHTTPSErrors: true, viewport });
}

/**
 * The tab as a browser that never signed in, here or on the hosted page: no cookies (the site's
 * tokens, the hosted session), no storage on the site (Amplify's state and PKCE verifier). Its HTTP
 * cache stays, so the next round of a loop does not fetch and compile Amplify again in a new profile.
 */
async function forgetSignIn(page: Page): Promise<void> {
  await page.context().clearCookies();
  // A page of the site with no scripts of its own, whose storage is the account page's.
  await page.goto(`${server.url}/robots.txt`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  expect(await tokenCookies(page.context())).toEqual([]);
}

let tab: Page | undefined;

/**
 * The file's one tab at 390x844, as a browser that never signed in (forgetSignIn). Tests that need
 * no clock or route of their own share it: a new profile per test fetched and compiled Amplify and
 * the account island again in a new renderer (about 2 s of the file's 24 s of CPU, measured). The
 * site's service worker and its caches stay, as in the browser of a donor who visited before.
 */
async function signedOutTab(): Promise<{ context: BrowserContext; page: Page }> {
  if (!tab || tab.isClosed()) tab = await (await device()).newPage();
  await tab.setViewportSize({ width: 390, height: 844 });
  await forgetSignIn(tab);
  return { context: tab.context(), page: tab };
}

async function openAccount(page: Page, path = "/account/"): Promise<void> {
  await page.goto(server.url + path);
  await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
}

const errorText = (page: Page) => page.locator(".account-step [role=alert]").textContent();

async function tokenCookies(context: BrowserContext) {
  return (await context.cookies(server.url)).filter(
    (c) => c.name.startsWith(`CognitoIdentityServiceProvider.${cognito.clientId}.`) && /Token$/.test(c.name),
  );
}

/** Presses the hosted sign-in button by keyboard and waits for the hosted login page. */
async function leaveForHostedPage(page: Page): Promise<URLSearchParams> {
  const before = hosted.authorizeRequests.length;
  // The island shows its sign-in step once it has looked for a session, which can come after it
  // hydrates: Tab looks for the button only once it is there (under load, 60 Tabs went by before).
  await page.getByRole("button", { name: HOSTED_BUTTON }).waitFor();
  await pressButton(page, HOSTED_BUTTON);
  await page.waitForURL((url) => url.origin === hosted.url && url.pathname.startsWith("/interaction/"));
  expect(hosted.authorizeRequests.length).toBe(before + 1);
  return hosted.authorizeRequests.at(-1)!;
}

/** The donor signs in on the hosted page (the stand-in's form), by keyboard. */
async function signInOnHostedPage(page: Page): Promise<void> {
  await page.getByLabel("Email").focus();
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
}

describe("the hosted sign-in, attacked", () => {
  it("ignores an answer that no sign-in in this browser asked for (login CSRF)", async () => {
    const { context, page } = await signedOutTab();
    // The attacker's own valid code, sent to the victim as a link.
    const code = await codeFor(hosted, {
      clientId: cognito.clientId,
      challenge: pkce().challenge,
      redirectUri: `${server.url}/account/`,
      email,
      password,
    });
    const tokenCalls = hosted.tokenRequests.length;
    await openAccount(page, `/account/?code=${code}&state=${"a".repeat(32)}`);
    await expectStep(page, "Sign in", { focused: false });
    expect(await errorText(page)).toMatch(/^Error: Invalid state in OAuth flow: /);
    expect(hosted.tokenRequests.length, "no token request").toBe(tokenCalls);
    expect(new URL(page.url()).search, "the answer is taken off the address").toBe("");
    expect(await tokenCookies(context)).toEqual([]);
    await expectAxeClean(page, "invalid state");
  });

  it("refuses a forged state while a sign-in is in progress, without sending the code", async () => {
    const { context, page } = await signedOutTab();
    await openAccount(page);
    await expectStep(page, "Sign in", { focused: false });
    const asked = await leaveForHostedPage(page);
    const tokenCalls = hosted.tokenRequests.length;
    // Another first character, always: putting "x" there left 1 state in 64 as it was (one that
    // began with "x": 4 byte values of 256 give it), and the code went to the token endpoint.
    const state = asked.get("state")!;
    const forged = `${state.startsWith("x") ? "y" : "x"}${state.slice(1)}`;
    expect(forged).not.toBe(state);
    await openAccount(page, `/account/?code=whatever&state=${forged}`);
    await expectStep(page, "Sign in", { focused: false });
    expect(await errorText(page)).toMatch(/^Error: Invalid state in OAuth flow: /);
    expect(hosted.tokenRequests.length).toBe(tokenCalls);
    expect(await tokenCookies(context)).toEqual([]);
  });

  it("refuses a replayed code, a code issued to another app client and an attacker's own code", async () => {
    const attackerCode = async (clientId: string) =>
      codeFor(hosted, {
        clientId,
        challenge: pkce().challenge,
        redirectUri: `${server.url}/account/`,
        email,
        password,
      });
    // A code already redeemed: take one from a finished sign-in.
    const { page: firstPage } = await signedOutTab();
    let answered: URL | undefined;
    firstPage.on("request", (req) => {
      const url = new URL(req.url());
      if (url.origin === server.url && url.searchParams.has("code")) answered = url;
    });
    await openAccount(firstPage);
    await leaveForHostedPage(firstPage);
    await signInOnHostedPage(firstPage);
    await expectStep(firstPage, "Your account", { focused: false });
    const replayed = answered!.searchParams.get("code")!;

    // Each of the three starts from a browser that never signed in (forgetSignIn).
    const { context, page } = await signedOutTab();
    for (const [what, code] of [
      ["a replayed code", replayed],
      ["a code for another app client", await attackerCode(hosted.otherClientId)],
      ["an attacker's code for this client, with their PKCE challenge", await attackerCode(cognito.clientId)],
    ] as const) {
      await forgetSignIn(page);
      await openAccount(page);
      const asked = await leaveForHostedPage(page);
      const tokenCalls = hosted.tokenRequests.length;
      // The victim's own state (the attacker got it to match): only the code is wrong.
      await openAccount(page, `/account/?code=${code}&state=${asked.get("state")}`);
      await expectStep(page, "Sign in", { focused: false });
      expect(await errorText(page), what).toMatch(/^Error: The sign-in page's answer could not be used/);
      expect(hosted.tokenRequests.slice(tokenCalls), what).toEqual([
        { clientId: cognito.clientId, status: 400, error: "invalid_grant" },
      ]);
      expect(await tokenCookies(context), what).toEqual([]);
    }
  });

  it("never sends the donor off the site after signing in", async () => {
    // Each of the four signs in again from a browser that never did (forgetSignIn).
    const { page } = await signedOutTab();
    const offSite: string[] = [];
    page.on("request", (req) => {
      if (/evil\.example/.test(new URL(req.url()).host)) offSite.push(req.url());
    });
    for (const target of ["https://evil.example/", "//evil.example/", "/\t/evil.example/", "/\\evil.example/"]) {
      await forgetSignIn(page);
      await openAccount(page, `/account/?return=${encodeURIComponent(target)}`);
      await leaveForHostedPage(page);
      await signInOnHostedPage(page);
      await expectStep(page, "Your account", { focused: false });
      expect(new URL(page.url()).pathname, target).toBe("/account/");
      expect(offSite, target).toEqual([]);
    }
  });

  it("refuses tokens from another pool, and keeps none of them", async () => {
    const { context, page } = await signedOutTab();
    // The configured hosted domain answers as another pool's would (its tokens' issuer is not ours).
    hosted.answerAs("https://cognito-idp.ap-southeast-2.amazonaws.com/ap-southeast-2_Other1");
    try {
      await openAccount(page);
      await leaveForHostedPage(page);
      await signInOnHostedPage(page);
      await expectStep(page, "Sign in", { focused: false });
      expect(await errorText(page)).toMatch(
        /^Error: The sign-in service answered with a sign-in that is not for this site/,
      );
      expect(hosted.tokenRequests.at(-1)).toMatchObject({ status: 200 });
      expect(await tokenCookies(context)).toEqual([]);
    } finally {
      hosted.answerAs(cognito.issuer);
    }
  });
});

describe("the hosted sign-in's time limits", () => {
  it("stops waiting for the hosted answer after 10 seconds", async () => {
    const context = await device();
    // The page's clock is the test's: the 10 s are jumped over, not waited out.
    await context.clock.install();
    // The token endpoint takes the request and never answers.
    let tokenAsked = () => {};
    const asked = new Promise<void>((resolve) => {
      tokenAsked = resolve;
    });
    await context.route(`${hosted.url}/oauth2/token`, () => tokenAsked());
    const page = await context.newPage();
    await openAccount(page);
    await leaveForHostedPage(page);
    await signInOnHostedPage(page);
    // The page starts its 10 s before it asks for the tokens (src/auth/hosted-sign-in.ts).
    await asked;
    await page.clock.fastForward(10_000);
    await expect
      .poll(() => errorText(page), { timeout: 20_000 })
      .toMatch(/^Error: The sign-in page did not finish within 10 seconds/);
    await expectStep(page, "Sign in", { focused: false });
    expect(await tokenCookies(context)).toEqual([]);
    await context.close();
  });

  it("says so when the hosted sign-out has not left the page after 3 seconds", async () => {
    const context = await device();
    // The page's clock is the test's: the 3 s are jumped over, not waited out.
    await context.clock.install();
    const page = await context.newPage();
    await openAccount(page);
    await leaveForHostedPage(page);
    await signInOnHostedPage(page);
    await expectStep(page, "Your account", { focused: false });
    // The hosted sign-out answers 204 No Content: the browser stays on the page, as when the
    // navigation is refused, and the hosted session is not ended.
    await context.route(`${hosted.url}/logout**`, (route) => route.fulfill({ status: 204 }));
    await pressButton(page, "Sign out");
    // The page starts its 3 s once Amplify has sent it to the hosted sign-out, at a moment the
    // test cannot see: each look jumps the clock 3 s, so the first look after that moment fires it.
    await expect
      .poll(
        async () => {
          await page.clock.fastForward(3_000);
          return page
            .locator(".account-step [role=alert]")
            .evaluateAll((alerts) => alerts.map((alert) => alert.textContent).join(""));
        },
        { timeout: 10_000 },
      )
      .toMatch(/^Error: Signout timeout fail: .* You are signed out on this device\.$/);
    expect(await tokenCookies(context)).toEqual([]);
    await context.close();
  });
});

describe("the hosted sign-in, as a donor walks it", () => {
  it("goes to the hosted page by keyboard and comes back signed in to the page they left", async () => {
    const { context, page } = await signedOutTab();
    const seen = watchProblems(page);
    await openAccount(page, "/account/?return=%2Fabout%2F");
    await expectStep(page, "Sign in", { focused: false });
    await expectAxeClean(page, "sign in with the hosted choice, 390x844");
    const box = await page.getByRole("button", { name: HOSTED_BUTTON }).boundingBox();
    expect(box!.height, "a 44 px target").toBeGreaterThanOrEqual(44);
    const asked = await leaveForHostedPage(page);
    // The authorize request's parameters, as Cognito's hosted sign-in takes them.
    expect(Object.fromEntries(asked)).toMatchObject({
      redirect_uri: `${server.url}/account/`,
      response_type: "code",
      client_id: cognito.clientId,
      identity_provider: "COGNITO",
      scope: "openid email profile aws.cognito.signin.user.admin",
      code_challenge_method: "S256",
    });
    // Amplify's state: 32 random characters, then the return path it carries.
    expect(asked.get("state")!.split("-")[0]).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(asked.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await signInOnHostedPage(page);
    await page.waitForURL(`${server.url}/about/`);
    expect(hosted.tokenRequests.at(-1)).toMatchObject({ clientId: cognito.clientId, status: 200 });
    // Tokens are kept as the site's own sign-in keeps them: in the cookies, nowhere else.
    const cookies = await tokenCookies(context);
    expect(cookies.map((c) => c.name.split(".").at(-1)).sort()).toEqual(["accessToken", "idToken", "refreshToken"]);
    // As the site's own sign-in keeps them: a year, path /, secure.
    const inDays = (c: { expires: number }) => (c.expires * 1000 - Date.now()) / 86_400_000;
    for (const cookie of cookies) {
      expect(cookie).toMatchObject({ secure: true, path: "/", sameSite: "Lax" });
      expect(inDays(cookie), cookie.name).toBeGreaterThan(364);
      expect(inDays(cookie), cookie.name).toBeLessThan(366);
    }
    const stored = await page.evaluate(() => Object.entries({ ...localStorage, ...sessionStorage }));
    expect(stored.filter(([, v]) => /^eyJ/.test(v)).map(([k]) => k)).toEqual([]);

    await page.setViewportSize({ width: 1280, height: 800 });
    await openAccount(page);
    await expectStep(page, "Your account", { focused: false });
    expect(await page.locator(".account").textContent()).toContain(email);
    await expectAxeClean(page, "signed in through the hosted page, 1280x800");
    expect(seen.pageErrors).toEqual([]);

    // Signing out ends the hosted session too: the next hosted sign-in asks for the password again.
    const logouts = hosted.logouts;
    await pressButton(page, "Sign out");
    await page.waitForURL((url) => url.origin === server.url && url.pathname === "/account/");
    await expectStep(page, "Sign in", { focused: false });
    expect(hosted.logouts).toBe(logouts + 1);
    expect(await tokenCookies(context)).toEqual([]);
    await leaveForHostedPage(page);
    expect(await page.getByLabel("Password").count()).toBe(1);
  });

  it("refreshes a hosted session's expired access token at the pool, and stays signed in", async () => {
    const { context, page } = await signedOutTab();
    const seen = watchProblems(page);
    await openAccount(page);
    await leaveForHostedPage(page);
    await signInOnHostedPage(page);
    await page.waitForURL(`${server.url}/account/`);
    await expectStep(page, "Your account", { focused: false });
    const byName = async (name: string) => (await tokenCookies(context)).find((c) => c.name.endsWith(`.${name}`))!;
    const first = await byName("accessToken");
    // The access token has run out (its exp an hour ago); the refresh token is as the hosted page gave it.
    const [head, body] = first.value.split(".");
    const claims = JSON.parse(Buffer.from(body!, "base64url").toString());
    const expired = `${head}.${Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600 })).toString("base64url")}.x`;
    await context.addCookies([{ ...first, value: expired }]);
    await openAccount(page);
    // Amplify refreshed at the pool (GetTokensFromRefreshToken): signed in, with a new access token
    // that the pool itself accepts.
    await expectStep(page, "Your account", { focused: false });
    expect(await page.locator(".account").textContent()).toContain(email);
    const renewed = await byName("accessToken");
    expect(renewed.value).not.toBe(expired);
    expect(renewed.value).not.toBe(first.value);
    const user = await cognito.call<{ Username: string }>("GetUser", { AccessToken: renewed.value });
    expect(user.Username).toBeTruthy();
    expect(seen.pageErrors).toEqual([]);
  });
});
