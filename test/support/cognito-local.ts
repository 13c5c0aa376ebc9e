/**
 * Test harness: a real cognito-local (the user pool emulator, a devDependency) on 127.0.0.1 with a
 * throw-away data directory, a user pool with e-mail sign-in and an app client, and a small bridge
 * in front of it for the calls the emulator lacks. Production code never sees the bridge: the
 * island only gets `userPoolEndpoint` pointing at it.
 *
 * The bridge (test only, each answer written down here so nobody mistakes it for Cognito):
 * - GetTokensFromRefreshToken: the latest Amplify refreshes tokens with it; the emulator only has
 *   InitiateAuth REFRESH_TOKEN_AUTH, which returns the same AuthenticationResult shape.
 * - ResendConfirmationCode: the emulator does not implement it; with a fixed CODE the code already
 *   sent stays valid, so the bridge only reports the delivery details.
 * - Token revocation, which the emulator lacks: the bridge notes every token it hands out (by the
 *   `event_id` the ID and access tokens of one sign-in or refresh share, per user and per refresh
 *   token). GlobalSignOut (AccessToken) revokes all of the user's tokens and their refresh tokens
 *   (the emulator's own RevokeToken, so a refresh fails as Cognito's does); RevokeToken revokes the
 *   tokens issued from that refresh token. A revoked access token sent to any call is refused with
 *   Cognito's NotAuthorizedException "Access Token has been revoked", so the account API's own
 *   check (GetUser) refuses it as with a real pool. A file's bridge in front of the run's pool
 *   (joinCognitoLocal) tells the run's bridge, whose address the service asks, of each revocation
 *   (NoteRevoked, the bridge's own action). `isRevoked(token)` says what a bridge revoked.
 * - Devices, which the emulator lacks: with device tracking off (the
 *   default) ListDevices and ForgetDevice answer InvalidParameterException "Device tracking has not
 *   been configured in this User Pool". With `trackDevices` on, every sign-in through the bridge
 *   remembers a device named by the browser's user agent (real Cognito remembers one only when the
 *   client confirms it with ConfirmDevice); ListDevices pages them by Limit (recorded in
 *   `deviceLimits`), ForgetDevice removes one.
 * - ChangePassword: the emulator answers a wrong current password with InvalidPasswordException;
 *   Cognito answers NotAuthorizedException "Incorrect username or password.", so the bridge says
 *   that when the new password meets the pool's policy (8 characters), the only other cause.
 * - E-mail verification, which the emulator does not track: a ConfirmSignUp that succeeds marks
 *   the e-mail verified (the code went to it; Cognito does the same for an auto-verified e-mail),
 *   and an UpdateUserAttributes that changes the e-mail marks it unverified again, as Cognito does
 *   until the new address is confirmed. The account API's guest-gift claim reads `email_verified`.
 * Everything else is passed through unchanged; CORS is answered here so browsers can call it.
 */
import { text } from "node:stream/consumers";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface CognitoLocal {
  /** The bridge's URL: give this to Amplify as userPoolEndpoint. */
  endpoint: string;
  /** The emulator itself, without the bridge (to test what it does and does not support). */
  upstream: string;
  /**
   * The tokens' `iss`: the bridge's URL plus the pool id, as a real pool's is its endpoint plus the
   * pool id, so a page can reach the endpoint from a token and the JWKS is at `<issuer>/.well-known/jwks.json`.
   */
  issuer: string;
  userPoolId: string;
  clientId: string;
  /** The fixed confirmation code every message carries. */
  code: string;
  dataDir: string;
  /** Calls one Cognito action through the bridge; throws with the Cognito error type on 4xx/5xx. */
  call<T = Record<string, unknown>>(action: string, body: unknown): Promise<T>;
  /** The confirmation code stored for a user (by e-mail), read from the emulator's data file. */
  readStoredCode(email: string): Promise<string | undefined>;
  /** Actions the bridge answered itself, in order, so tests can see the bridge was used. */
  bridged: string[];
  /** Whether the bridge answers as a pool that remembers devices (default: off). */
  trackDevices: boolean;
  /** The Limit of each ListDevices call. */
  deviceLimits: number[];
  /** True for a token (ID or access) revoked by GlobalSignOut or RevokeToken through the bridge. */
  isRevoked(token: string): boolean;
  stop(): Promise<void>;
}

export interface StartOptions {
  code?: string;
  /** Print the emulator's output (it logs each confirmation code). */
  verbose?: boolean;
  /** Answer as a pool with device tracking on (see the bridge's notes above). */
  trackDevices?: boolean;
  /** The pool's MFA setting; OFF unless a test needs the MFA flows. */
  mfa?: "OFF" | "OPTIONAL" | "ON";
}

const BIN = resolve(import.meta.dirname, "../../node_modules/cognito-local/lib/bin/start.js");

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

export class CognitoCallError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = type;
  }
}

interface RawResponse {
  status: number;
  contentType: string | undefined;
  text: string;
}

/**
 * Plain node:http rather than fetch: in a happy-dom test the global fetch is the DOM's (with
 * CORS and mixed-content rules meant for page code), and the harness is not page code.
 */
function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        ok({
          status: res.statusCode ?? 0,
          contentType: res.headers["content-type"],
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end(body);
  });
}

function postTarget(endpoint: string, target: string, body: string): Promise<RawResponse> {
  return rawRequest(endpoint, "POST", { "content-type": "application/x-amz-json-1.1", "x-amz-target": target }, body);
}

export async function cognitoCall<T>(endpoint: string, action: string, body: unknown): Promise<T> {
  const res = await postTarget(endpoint, `AWSCognitoIdentityProviderService.${action}`, JSON.stringify(body));
  const json = res.text ? (JSON.parse(res.text) as Record<string, unknown>) : {};
  if (res.status >= 400) {
    const type = String(json.__type ?? "UnknownError");
    throw new CognitoCallError(type.slice(type.lastIndexOf("#") + 1), String(json.message ?? res.text), res.status);
  }
  return json as T;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`cognito-local exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await rawRequest(`${url}/health`, "GET", {});
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`cognito-local did not start within 20 s:\n${output()}`);
}

export async function startCognitoLocal(options: StartOptions = {}): Promise<CognitoLocal> {
  const code = options.code ?? "123456";
  const dataDir = await mkdtemp(join(tmpdir(), "nzf-cognito-"));
  const port = await freePort();
  const upstream = `http://127.0.0.1:${port}`;
  const state = newBridgeState(options.trackDevices ?? false);
  const bridge: Server = createServer((req, res) => void handleBridge(req, res, upstream, state));
  await new Promise<void>((ok) => bridge.listen(0, "127.0.0.1", ok));
  const endpoint = `http://127.0.0.1:${(bridge.address() as AddressInfo).port}`;
  await mkdir(join(dataDir, ".cognito"), { recursive: true });
  await writeFile(
    join(dataDir, ".cognito", "config.json"),
    JSON.stringify({ TokenConfig: { IssuerDomain: endpoint }, UserPoolDefaults: { UsernameAttributes: ["email"] } }),
  );

  let output = "";
  const child = spawn(process.execPath, [BIN], {
    cwd: dataDir,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", CODE: code, NO_COLOR: "1", DEBUG: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (options.verbose) process.stderr.write(chunk);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);

  try {
    await waitForHealth(upstream, child, () => output);
    const pool = await cognitoCall<{ UserPool: { Id: string } }>(upstream, "CreateUserPool", {
      PoolName: "nzf-test",
      UsernameAttributes: ["email"],
      AutoVerifiedAttributes: ["email"],
      Policies: {
        PasswordPolicy: {
          MinimumLength: 8,
          RequireLowercase: false,
          RequireUppercase: false,
          RequireNumbers: false,
          RequireSymbols: false,
        },
      },
      MfaConfiguration: options.mfa ?? "OFF",
    });
    const client = await cognitoCall<{ UserPoolClient: { ClientId: string } }>(upstream, "CreateUserPoolClient", {
      UserPoolId: pool.UserPool.Id,
      ClientName: "nzf-site",
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    });
    const clientId = client.UserPoolClient.ClientId;
    const userPoolId = pool.UserPool.Id;
    const server = bridge;

    return withBridgeState(state, {
      endpoint,
      upstream,
      issuer: `${endpoint}/${userPoolId}`,
      userPoolId,
      clientId,
      code,
      dataDir,
      call: (action, body) => cognitoCall(endpoint, action, body),
      readStoredCode: (email) => storedCode(dataDir, userPoolId, email),
      async stop() {
        await new Promise<void>((ok) => server.close(() => ok()));
        await stopChild(child);
        await rm(dataDir, { recursive: true, force: true });
      },
    });
  } catch (error) {
    bridge.close();
    await stopChild(child);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The confirmation code the emulator stored for a user (by e-mail), from its data file. */
async function storedCode(dataDir: string, userPoolId: string, email: string): Promise<string | undefined> {
  const db = JSON.parse(await readFile(join(dataDir, ".cognito", "db", `${userPoolId}.json`), "utf8")) as {
    Users?: Record<string, { ConfirmationCode?: string; Attributes?: { Name: string; Value: string }[] }>;
  };
  const user = Object.values(db.Users ?? {}).find((u) =>
    u.Attributes?.some((a) => a.Name === "email" && a.Value === email),
  );
  return user?.ConfirmationCode;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

function cors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("access-control-allow-origin", req.headers.origin ?? "*");
  res.setHeader("access-control-allow-methods", "POST, OPTIONS");
  res.setHeader("access-control-allow-headers", req.headers["access-control-request-headers"] ?? "*");
  res.setHeader("access-control-expose-headers", "x-amzn-errortype, x-amzn-requestid, x-amzn-errormessage, date");
  res.setHeader("access-control-max-age", "600");
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/x-amz-json-1.1" });
  res.end(JSON.stringify(body));
}

interface Device {
  DeviceKey: string;
  DeviceAttributes: { Name: string; Value: string }[];
  DeviceCreateDate: number;
  DeviceLastModifiedDate: number;
  DeviceLastAuthenticatedDate: number;
}

interface BridgeState {
  bridged: string[];
  trackDevices: boolean;
  deviceLimits: number[];
  /** event_ids of revoked tokens. */
  revoked: Set<string>;
  /** Per user (sub): the event_ids and refresh tokens handed out. */
  issued: Map<string, { events: Set<string>; refreshTokens: Set<string> }>;
  /** Per refresh token: the event_ids of the tokens issued from it. */
  byRefresh: Map<string, Set<string>>;
  devices: Map<string, Device[]>;
  /**
   * A file's bridge in front of the run's pool tells the run's bridge (at the address the tokens
   * name, which the payments service asks) of each revocation, so the service refuses those tokens
   * as a real pool would.
   */
  tellRevoked?: (events: string[]) => Promise<unknown>;
}

function newBridgeState(trackDevices: boolean): BridgeState {
  return {
    bridged: [],
    trackDevices,
    deviceLimits: [],
    revoked: new Set(),
    issued: new Map(),
    byRefresh: new Map(),
    devices: new Map(),
  };
}

function claimsOf(token: unknown): Record<string, unknown> | null {
  if (typeof token !== "string") return null;
  try {
    return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const DEVICES_OFF = "Device tracking has not been configured in this User Pool";

/** Notes the tokens of a successful sign-in or refresh; remembers the device when tracking is on. */
function noteTokens(state: BridgeState, result: unknown, refreshUsed: unknown, userAgent: string): void {
  const auth = (result as { AuthenticationResult?: Record<string, unknown> } | null)?.AuthenticationResult;
  const claims = claimsOf(auth?.AccessToken);
  if (!claims || typeof claims.sub !== "string" || typeof claims.event_id !== "string") return;
  const mine = state.issued.get(claims.sub) ?? { events: new Set<string>(), refreshTokens: new Set<string>() };
  state.issued.set(claims.sub, mine);
  mine.events.add(claims.event_id);
  const refresh = typeof auth?.RefreshToken === "string" ? auth.RefreshToken : refreshUsed;
  if (typeof refresh === "string") {
    mine.refreshTokens.add(refresh);
    const events = state.byRefresh.get(refresh) ?? new Set<string>();
    events.add(claims.event_id);
    state.byRefresh.set(refresh, events);
  }
  if (state.trackDevices && typeof auth?.RefreshToken === "string") {
    const now = Math.floor(Date.now() / 1000);
    const list = state.devices.get(claims.sub) ?? [];
    list.push({
      DeviceKey: `ap-southeast-2_${randomUUID()}`,
      DeviceAttributes: [{ Name: "device_name", Value: userAgent || "Unknown browser" }],
      DeviceCreateDate: now,
      DeviceLastModifiedDate: now,
      DeviceLastAuthenticatedDate: now,
    });
    state.devices.set(claims.sub, list);
  }
}

async function handleBridge(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: string,
  state: BridgeState,
): Promise<void> {
  const bridged = state.bridged;
  cors(req, res);
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  try {
    const body = await text(req);
    const target = String(req.headers["x-amz-target"] ?? "");
    if (!target) {
      // Not a service call: the pool's JWKS (`<issuer>/.well-known/jwks.json`), health.
      const forwarded = await rawRequest(upstream + (req.url ?? "/"), req.method ?? "GET", {});
      res.writeHead(forwarded.status, { "content-type": forwarded.contentType ?? "application/json" });
      res.end(forwarded.text);
      return;
    }
    const action = target.slice(target.indexOf(".") + 1);
    const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const access = claimsOf(input.AccessToken);
    if (typeof access?.event_id === "string" && state.revoked.has(access.event_id)) {
      send(res, 400, { __type: "NotAuthorizedException", message: "Access Token has been revoked" });
      return;
    }
    const userAgent = String(req.headers["user-agent"] ?? "");
    switch (action) {
      case "GetTokensFromRefreshToken": {
        bridged.push(action);
        const out = await cognitoCall<{ AuthenticationResult?: Record<string, unknown> }>(upstream, "InitiateAuth", {
          AuthFlow: "REFRESH_TOKEN_AUTH",
          ClientId: input.ClientId,
          AuthParameters: { REFRESH_TOKEN: input.RefreshToken },
        });
        noteTokens(state, out, input.RefreshToken, userAgent);
        send(res, 200, { AuthenticationResult: out.AuthenticationResult });
        return;
      }
      case "ResendConfirmationCode": {
        bridged.push(action);
        const email = String(input.Username ?? "");
        send(res, 200, {
          CodeDeliveryDetails: { AttributeName: "email", DeliveryMedium: "EMAIL", Destination: maskEmail(email) },
        });
        return;
      }
      case "ListDevices":
      case "ForgetDevice": {
        bridged.push(action);
        // The access token must be good: the emulator's GetUser says so (and refuses a bad one).
        await cognitoCall(upstream, "GetUser", { AccessToken: input.AccessToken });
        if (!state.trackDevices) {
          send(res, 400, { __type: "InvalidParameterException", message: DEVICES_OFF });
          return;
        }
        const sub = String(access?.sub);
        const list = state.devices.get(sub) ?? [];
        if (action === "ForgetDevice") {
          const at = list.findIndex((d) => d.DeviceKey === input.DeviceKey);
          if (at < 0) {
            send(res, 400, { __type: "ResourceNotFoundException", message: "Device does not exist." });
            return;
          }
          list.splice(at, 1);
          send(res, 200, {});
          return;
        }
        const limit = Number(input.Limit ?? 60);
        state.deviceLimits.push(limit);
        const start = Number(input.PaginationToken ?? 0);
        const page = list.slice(start, start + limit);
        send(res, 200, {
          Devices: page,
          ...(start + limit < list.length ? { PaginationToken: String(start + limit) } : {}),
        });
        return;
      }
      case "ChangePassword": {
        const forwarded = await postTarget(upstream, target, body);
        if (
          forwarded.status === 400 &&
          forwarded.text.includes("InvalidPasswordException") &&
          String(input.ProposedPassword ?? "").length >= 8
        ) {
          bridged.push(action);
          send(res, 400, { __type: "NotAuthorizedException", message: "Incorrect username or password." });
          return;
        }
        res.writeHead(forwarded.status, { "content-type": forwarded.contentType ?? "application/x-amz-json-1.1" });
        res.end(forwarded.text);
        return;
      }
      case "GlobalSignOut": {
        bridged.push(action);
        await cognitoCall(upstream, "GetUser", { AccessToken: input.AccessToken });
        const mine = state.issued.get(String(access?.sub));
        for (const event of mine?.events ?? []) state.revoked.add(event);
        await state.tellRevoked?.([...(mine?.events ?? [])]);
        for (const token of mine?.refreshTokens ?? [])
          await cognitoCall(upstream, "RevokeToken", { Token: token, ClientId: access?.client_id }).catch(
            () => undefined,
          );
        send(res, 200, {});
        return;
      }
      case "NoteRevoked": {
        // The bridge's own action (no Cognito one has the name): a file's bridge telling the run's.
        for (const event of (input.EventIds as string[] | undefined) ?? []) state.revoked.add(event);
        send(res, 200, {});
        return;
      }
      case "RevokeToken": {
        bridged.push(action);
        for (const event of state.byRefresh.get(String(input.Token)) ?? []) state.revoked.add(event);
        await state.tellRevoked?.([...(state.byRefresh.get(String(input.Token)) ?? [])]);
        // The emulator drops the refresh token; after a GlobalSignOut it is already gone, which Cognito accepts too.
        await cognitoCall(upstream, "RevokeToken", input).catch(() => undefined);
        send(res, 200, {});
        return;
      }
    }
    const forwarded = await postTarget(upstream, target, body);
    if (forwarded.status === 200 && (action === "ConfirmSignUp" || action === "UpdateUserAttributes"))
      await markEmailVerified(upstream, action, input);
    if (forwarded.status === 200 && (action === "InitiateAuth" || action === "RespondToAuthChallenge"))
      noteTokens(
        state,
        JSON.parse(forwarded.text),
        (input.AuthParameters as Record<string, unknown> | undefined)?.REFRESH_TOKEN,
        userAgent,
      );
    res.writeHead(forwarded.status, { "content-type": forwarded.contentType ?? "application/x-amz-json-1.1" });
    res.end(forwarded.text);
  } catch (error) {
    if (error instanceof CognitoCallError) {
      send(res, error.status, { __type: error.type, message: error.message });
    } else {
      send(res, 500, { __type: "BridgeError", message: String(error) });
    }
  }
}

/** The emulator's missing e-mail verification (see the bridge's notes at the top). */
async function markEmailVerified(upstream: string, action: string, input: Record<string, unknown>): Promise<void> {
  let username: string;
  let verified: boolean;
  if (action === "ConfirmSignUp") {
    username = String(input.Username);
    verified = true;
  } else {
    const changed = (input.UserAttributes as { Name: string }[] | undefined)?.some((a) => a.Name === "email");
    if (!changed) return;
    username = String(claimsOf(input.AccessToken)?.sub);
    verified = false;
  }
  const clientId = String(input.ClientId ?? claimsOf(input.AccessToken)?.client_id ?? "");
  const pools = await cognitoCall<{ UserPools: { Id: string }[] }>(upstream, "ListUserPools", { MaxResults: 60 });
  for (const pool of pools.UserPools) {
    const clients = await cognitoCall<{ UserPoolClients?: { ClientId: string }[] }>(upstream, "ListUserPoolClients", {
      UserPoolId: pool.Id,
      MaxResults: 60,
    });
    if (!clients.UserPoolClients?.some((c) => c.ClientId === clientId)) continue;
    const user = await cognitoCall<{ UserAttributes: { Name: string; Value: string }[] }>(upstream, "AdminGetUser", {
      UserPoolId: pool.Id,
      Username: username,
    });
    const email = user.UserAttributes.find((a) => a.Name === "email")?.Value;
    if (!email) return;
    await cognitoCall(upstream, "AdminUpdateUserAttributes", {
      UserPoolId: pool.Id,
      Username: username,
      UserAttributes: [
        { Name: "email", Value: email },
        { Name: "email_verified", Value: String(verified) },
      ],
    });
    return;
  }
}

function maskEmail(email: string): string {
  const [name = "", host = ""] = email.split("@");
  return `${name.slice(0, 1)}***@${host.slice(0, 1)}***`;
}

/**
 * The run's one cognito-local (started by test/support/global-setup.ts, described in
 * NZF_TEST_COGNITO): the address the shared account build was made with (its bridge, which is also
 * the tokens' issuer domain), the emulator behind it, and its pool and app client.
 */
export interface RunCognito {
  endpoint: string;
  upstream: string;
  userPoolId: string;
  clientId: string;
  code: string;
  dataDir: string;
}

/** The run's cognito-local from NZF_TEST_COGNITO, or null when the run has none (a test started otherwise). */
export function runCognito(): RunCognito | null {
  const text = process.env.NZF_TEST_COGNITO;
  return text ? (JSON.parse(text) as RunCognito) : null;
}

/**
 * A test file's own view of the run's cognito-local: the same pool and app client (each file makes
 * its own users, with e-mails no other file uses), behind a bridge of this file's own, so what the
 * bridge records (bridged calls, revoked tokens, devices, device tracking) is this file's alone.
 * `endpoint` and `issuer` are the run's (what the shared build and the tokens name); the file's
 * pages reach its bridge by routing that address to `bridge` in the browser (routeCognitoTo in
 * shared-account-site.ts), and `call` goes to the bridge. `stop` closes the bridge only.
 */
export async function joinCognitoLocal(run: RunCognito): Promise<CognitoLocal & { bridge: string }> {
  const state = newBridgeState(false);
  state.tellRevoked = (events) =>
    postTarget(run.endpoint, "NzfTestBridge.NoteRevoked", JSON.stringify({ EventIds: events }));
  const server: Server = createServer((req, res) => void handleBridge(req, res, run.upstream, state));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const bridge = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return withBridgeState(state, {
    endpoint: run.endpoint,
    bridge,
    upstream: run.upstream,
    issuer: `${run.endpoint}/${run.userPoolId}`,
    userPoolId: run.userPoolId,
    clientId: run.clientId,
    code: run.code,
    dataDir: run.dataDir,
    call: (action, body) => cognitoCall(bridge, action, body),
    readStoredCode: (email) => storedCode(run.dataDir, run.userPoolId, email),
    async stop() {
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  });
}

type BridgeView = "bridged" | "trackDevices" | "deviceLimits" | "isRevoked";

/** A pool's handle with what its bridge records (`state`) readable, and device tracking switchable. */
function withBridgeState<T extends Omit<CognitoLocal, BridgeView>>(state: BridgeState, rest: T): T & CognitoLocal {
  return {
    ...rest,
    bridged: state.bridged,
    get trackDevices() {
      return state.trackDevices;
    },
    set trackDevices(on: boolean) {
      state.trackDevices = on;
    },
    deviceLimits: state.deviceLimits,
    isRevoked: (token: string) => {
      const claims = claimsOf(token);
      return typeof claims?.event_id === "string" && state.revoked.has(claims.event_id);
    },
  };
}
