/**
 * What cognito-local cannot do (devices, global sign-out, MFA challenges and setup, throttling,
 * network failures, revoked or disabled sessions), tested with the real aws-amplify through our
 * adapter against a local HTTP server that answers each Cognito action with a recorded response
 * in Cognito's wire format (AWS JSON 1.1: errors carry `__type` and `message`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createAmplifyAdapter } from "../../src/auth/amplify.js";
import { describeAuthError, SESSION_INVALIDATING_MESSAGES } from "../../src/auth/messages.js";
import type { AuthAdapter } from "../../src/auth/types.js";
import { pageCookies } from "../support/page-cookies.js";

type Answer = { status?: number; body?: unknown } | "drop";
type Handler = (input: Record<string, unknown>) => Answer;

const POOL = "ap-southeast-2_Rec0rded";
const CLIENT = "recordedclient123";
const EMAIL = "amina@example.org";
const SUB = "7d8f0c5e-1111-4222-8333-444455556666";

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Unsigned JWTs with Cognito's claims: Amplify decodes tokens but verification is the server's job. */
function tokens() {
  const now = Math.floor(Date.now() / 1000);
  const header = b64({ alg: "RS256", kid: "recorded" });
  const access = {
    sub: SUB,
    username: SUB,
    client_id: CLIENT,
    token_use: "access",
    origin_jti: "recorded-origin-jti",
    iat: now,
    exp: now + 3600,
    iss: `https://cognito-idp.ap-southeast-2.amazonaws.com/${POOL}`,
  };
  const id = {
    sub: SUB,
    "cognito:username": SUB,
    email: EMAIL,
    email_verified: true,
    aud: CLIENT,
    token_use: "id",
    iat: now,
    exp: now + 3600,
  };
  return {
    AccessToken: `${header}.${b64(access)}.sig`,
    IdToken: `${header}.${b64(id)}.sig`,
    RefreshToken: "recorded-refresh-token",
    ExpiresIn: 3600,
    TokenType: "Bearer",
  };
}

const GET_USER = {
  Username: SUB,
  UserAttributes: [
    { Name: "sub", Value: SUB },
    { Name: "email", Value: EMAIL },
    { Name: "email_verified", Value: "true" },
    { Name: "phone_number", Value: "+61400000099" },
    { Name: "phone_number_verified", Value: "false" },
  ],
  PreferredMfaSetting: "SOFTWARE_TOKEN_MFA",
  UserMFASettingList: ["SOFTWARE_TOKEN_MFA"],
};

let server: Server;
let endpoint: string;
let handlers: Record<string, Handler>;
let seen: { action: string; input: Record<string, unknown> }[];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const action = String(req.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
    const input = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    seen.push({ action, input });
    const handler = handlers[action];
    const answer: Answer = handler
      ? handler(input)
      : { status: 400, body: { __type: "InvalidParameterException", message: `no recording for ${action}` } };
    if (answer === "drop") {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status ?? 200, { "content-type": "application/x-amz-json-1.1" });
    res.end(JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
const jar = pageCookies();
vi.stubGlobal("document", jar.document);
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  vi.unstubAllGlobals();
  await jar.close();
});

let adapter: AuthAdapter;
beforeEach(() => {
  seen = [];
  jar.clear();
  // biome-ignore lint/correctness/noComponentHookFactories: keyed by the Cognito call's name, not a React component
  handlers = { RevokeToken: () => ({ body: {} }) };
  adapter = createAmplifyAdapter({
    region: "ap-southeast-2",
    userPoolId: POOL,
    userPoolClientId: CLIENT,
    userPoolEndpoint: endpoint,
    authFlowType: "USER_PASSWORD_AUTH",
    sameSite: "lax",
    secure: true,
  });
});

const storedTokens = () => jar.names().filter((k) => /\.(accessToken|idToken|refreshToken)$/.test(k));
const error = (type: string, message: string, status = 400): Answer => ({ status, body: { __type: type, message } });

async function signedIn(): Promise<void> {
  handlers.InitiateAuth = () => ({ body: { AuthenticationResult: tokens(), ChallengeParameters: {} } });
  expect(await adapter.signIn(EMAIL, "eight ch")).toEqual({ step: "DONE" });
  expect(storedTokens()).toHaveLength(3);
}

describe("account details (GetUser, ListDevices)", () => {
  it("shows attributes, MFA preference and up to 60 devices", async () => {
    await signedIn();
    handlers.GetUser = () => ({ body: GET_USER });
    handlers.ListDevices = () => ({
      body: {
        Devices: [
          {
            DeviceKey: "ap-southeast-2_dev1",
            DeviceAttributes: [{ Name: "device_name", Value: "Firefox on Windows" }],
            DeviceLastAuthenticatedDate: 1740823200,
          },
          { DeviceKey: "ap-southeast-2_dev2", DeviceAttributes: [] },
        ],
      },
    });
    const account = await adapter.loadAccount();
    expect(account).toEqual({
      username: EMAIL,
      email: EMAIL,
      emailVerified: true,
      phoneNumber: "+61400000099",
      phoneNumberVerified: false,
      mfaPreference: "SOFTWARE_TOKEN_MFA",
      // The recorded GetUser lists SOFTWARE_TOKEN_MFA in UserMFASettingList: the app is set up.
      mfaEnabled: ["TOTP"],
      devices: [
        { id: "ap-southeast-2_dev1", name: "Firefox on Windows", lastSeen: "2025-03-01T10:00:00.000Z" },
        { id: "ap-southeast-2_dev2" },
      ],
    });
    const list = seen.find((s) => s.action === "ListDevices")!;
    expect(list.input.Limit).toBe(60);
    expect(list.input.AccessToken).toBe(jar.get(jar.names().find((k) => k.endsWith(".accessToken"))!));
  });

  it("a pool without device tracking shows no device list instead of failing", async () => {
    await signedIn();
    handlers.GetUser = () => ({ body: GET_USER });
    handlers.ListDevices = () =>
      error("InvalidParameterException", "Device tracking has not been configured in this User Pool");
    expect((await adapter.loadAccount()).devices).toBeNull();
  });
});

describe("sign-out", () => {
  it("global sign-out calls GlobalSignOut with the access token and clears the cookies", async () => {
    await signedIn();
    handlers.GlobalSignOut = () => ({ body: {} });
    const access = jar.get(jar.names().find((k) => k.endsWith(".accessToken"))!);
    await adapter.signOut({ global: true });
    expect(seen.find((s) => s.action === "GlobalSignOut")?.input).toEqual({ AccessToken: access });
    expect(storedTokens()).toEqual([]);
    expect(await adapter.currentUser()).toBeNull();
  });

  it("local sign-out revokes the refresh token and clears the cookies", async () => {
    await signedIn();
    await adapter.signOut({ global: false });
    expect(seen.find((s) => s.action === "RevokeToken")?.input).toEqual({
      ClientId: CLIENT,
      Token: "recorded-refresh-token",
    });
    expect(storedTokens()).toEqual([]);
  });
});

describe("MFA challenges and setup", () => {
  const challenge = (name: string, parameters: Record<string, string>): Answer => ({
    body: {
      ChallengeName: name,
      Session: `session-${name}`,
      ChallengeParameters: { USER_ID_FOR_SRP: SUB, ...parameters },
    },
  });

  it("TOTP code", async () => {
    handlers.InitiateAuth = () => challenge("SOFTWARE_TOKEN_MFA", {});
    handlers.RespondToAuthChallenge = () => ({ body: { AuthenticationResult: tokens(), ChallengeParameters: {} } });
    expect(await adapter.signIn(EMAIL, "eight ch")).toEqual({ step: "TOTP_CODE" });
    expect(await adapter.confirmSignIn("123456")).toEqual({ step: "DONE" });
    const respond = seen.find((s) => s.action === "RespondToAuthChallenge")!.input;
    expect(respond).toMatchObject({
      ChallengeName: "SOFTWARE_TOKEN_MFA",
      Session: "session-SOFTWARE_TOKEN_MFA",
      ClientId: CLIENT,
    });
    expect(respond.ChallengeResponses).toMatchObject({ SOFTWARE_TOKEN_MFA_CODE: "123456" });
    expect(storedTokens()).toHaveLength(3);
  });

  it("SMS code shows where it was sent", async () => {
    handlers.InitiateAuth = () =>
      challenge("SMS_MFA", { CODE_DELIVERY_DELIVERY_MEDIUM: "SMS", CODE_DELIVERY_DESTINATION: "+*******0099" });
    expect(await adapter.signIn(EMAIL, "eight ch")).toEqual({ step: "SMS_CODE", destination: "+*******0099" });
  });

  it("MFA type selection (SELECT_MFA_TYPE) offers the allowed types and answers with the choice", async () => {
    handlers.InitiateAuth = () => challenge("SELECT_MFA_TYPE", { MFAS_CAN_CHOOSE: '["SMS_MFA","SOFTWARE_TOKEN_MFA"]' });
    handlers.RespondToAuthChallenge = () => challenge("SOFTWARE_TOKEN_MFA", {});
    expect(await adapter.signIn(EMAIL, "eight ch")).toEqual({ step: "MFA_SELECTION", allowed: ["SMS", "TOTP"] });
    expect(await adapter.confirmSignIn("TOTP")).toEqual({ step: "TOTP_CODE" });
    const respond = seen.find((s) => s.action === "RespondToAuthChallenge")!.input;
    expect(respond.ChallengeName).toBe("SELECT_MFA_TYPE");
    expect(respond.ChallengeResponses).toMatchObject({ ANSWER: "SOFTWARE_TOKEN_MFA" });
  });

  it("MFA setup with an authenticator app (MFA_SETUP → AssociateSoftwareToken → VerifySoftwareToken)", async () => {
    handlers.InitiateAuth = () => challenge("MFA_SETUP", { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' });
    handlers.AssociateSoftwareToken = () => ({
      body: { SecretCode: "JBSWY3DPEHPK3PXP", Session: "session-associate" },
    });
    handlers.VerifySoftwareToken = () => ({ body: { Status: "SUCCESS", Session: "session-verified" } });
    handlers.RespondToAuthChallenge = () => ({ body: { AuthenticationResult: tokens(), ChallengeParameters: {} } });
    const step = await adapter.signIn(EMAIL, "eight ch");
    expect(step).toMatchObject({ step: "MFA_SETUP_TOTP", secret: "JBSWY3DPEHPK3PXP" });
    expect(step.step === "MFA_SETUP_TOTP" && step.setupUri).toBe(
      "otpauth://totp/National%20Zakat%20Foundation:amina@example.org?secret=JBSWY3DPEHPK3PXP&issuer=National%20Zakat%20Foundation",
    );
    expect(await adapter.confirmSignIn("246810")).toEqual({ step: "DONE" });
    expect(seen.find((s) => s.action === "VerifySoftwareToken")?.input).toMatchObject({
      UserCode: "246810",
      Session: "session-associate",
    });
    expect(seen.filter((s) => s.action === "RespondToAuthChallenge").at(-1)?.input).toMatchObject({
      ChallengeName: "MFA_SETUP",
      Session: "session-verified",
    });
  });

  it("new password required", async () => {
    handlers.InitiateAuth = () =>
      challenge("NEW_PASSWORD_REQUIRED", { userAttributes: '{"email":"amina@example.org"}', requiredAttributes: "[]" });
    handlers.RespondToAuthChallenge = () => ({ body: { AuthenticationResult: tokens(), ChallengeParameters: {} } });
    expect(await adapter.signIn(EMAIL, "eight ch")).toEqual({ step: "NEW_PASSWORD_REQUIRED" });
    expect(await adapter.confirmSignIn("a brand new password")).toEqual({ step: "DONE" });
    expect(seen.find((s) => s.action === "RespondToAuthChallenge")?.input.ChallengeResponses).toMatchObject({
      NEW_PASSWORD: "a brand new password",
    });
  });

  it("custom challenge passes its parameters through", async () => {
    handlers.InitiateAuth = () => challenge("CUSTOM_CHALLENGE", { question: "What is 2 + 3?" });
    expect(await adapter.signIn(EMAIL, "eight ch")).toMatchObject({
      step: "CUSTOM_CHALLENGE",
      parameters: { question: "What is 2 + 3?" },
    });
  });
});

describe("throttling and network failures", () => {
  it("throttling is retried by the library, then shown as plain text", async () => {
    handlers.InitiateAuth = () => error("TooManyRequestsException", "Rate exceeded");
    const failure = await adapter.signIn(EMAIL, "eight ch").catch((e: unknown) => e);
    expect(seen.filter((s) => s.action === "InitiateAuth").length).toBe(3);
    expect(describeAuthError(failure, "sign-in")).toEqual({
      message: "Too many attempts. Wait a few minutes, then try again.",
      invalidatesSession: false,
    });
  });

  it("a dropped connection becomes a Network Error message", async () => {
    handlers.InitiateAuth = () => "drop";
    const failure = await adapter.signIn(EMAIL, "eight ch").catch((e: unknown) => e);
    expect((failure as Error).name).toBe("NetworkError");
    expect(describeAuthError(failure, "sign-in").message).toMatch(/^Network Error: /);
  });

  it("a 5xx answer is shown without its raw body", async () => {
    handlers.InitiateAuth = () => error("InternalErrorException", '{"stack":"at handler (index.js:1)"}', 500);
    const failure = await adapter.signIn(EMAIL, "eight ch").catch((e: unknown) => e);
    expect(describeAuthError(failure, "sign-in").message).toBe(
      "Authentication Error: something went wrong. Please try again in a moment.",
    );
  });
});

describe("session-invalidating errors sign out and clean the stored session", () => {
  const typeFor = (message: string) =>
    message === "User does not exist."
      ? "UserNotFoundException"
      : message.startsWith("Password reset")
        ? "PasswordResetRequiredException"
        : "NotAuthorizedException";

  for (const message of SESSION_INVALIDATING_MESSAGES) {
    it(message, async () => {
      await signedIn();
      handlers.GetUser = () => error(typeFor(message), message);
      const failure = await adapter.loadAccount().catch((e: unknown) => e);
      expect((failure as Error).message).toBe(message);
      expect(describeAuthError(failure, "account").invalidatesSession).toBe(true);
      expect(storedTokens()).toEqual([]);
      expect(await adapter.currentUser()).toBeNull();
    });
  }

  it("an ordinary error keeps the session", async () => {
    await signedIn();
    handlers.GetUser = () => error("InternalErrorException", "boom", 500);
    await adapter.loadAccount().catch(() => undefined);
    expect(storedTokens()).toHaveLength(3);
  });
});
