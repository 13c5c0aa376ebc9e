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
 * - ListDevices: the pool does not track devices in the emulator; answers an empty list.
 * - GlobalSignOut: accepted (tokens are not revoked by the emulator; the revocation path is covered
 *   by unit tests with recorded responses).
 * Everything else is passed through unchanged; CORS is answered here so browsers can call it.
 */
import { spawn, type ChildProcess } from "node:child_process";
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
  stop(): Promise<void>;
}

export interface StartOptions {
  code?: string;
  /** Print the emulator's output (it logs each confirmation code). */
  verbose?: boolean;
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
  const bridged: string[] = [];
  const bridge: Server = createServer((req, res) => void handleBridge(req, res, upstream, bridged));
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
      MfaConfiguration: "OFF",
    });
    const client = await cognitoCall<{ UserPoolClient: { ClientId: string } }>(upstream, "CreateUserPoolClient", {
      UserPoolId: pool.UserPool.Id,
      ClientName: "nzf-site",
      ExplicitAuthFlows: ["ALLOW_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
    });
    const clientId = client.UserPoolClient.ClientId;
    const userPoolId = pool.UserPool.Id;
    const server = bridge;

    return {
      endpoint,
      upstream,
      issuer: `${endpoint}/${userPoolId}`,
      userPoolId,
      clientId,
      code,
      dataDir,
      bridged,
      call: (action, body) => cognitoCall(endpoint, action, body),
      async readStoredCode(email) {
        const db = JSON.parse(await readFile(join(dataDir, ".cognito", "db", `${userPoolId}.json`), "utf8")) as {
          Users?: Record<string, { ConfirmationCode?: string; Attributes?: { Name: string; Value: string }[] }>;
        };
        const user = Object.values(db.Users ?? {}).find((u) =>
          u.Attributes?.some((a) => a.Name === "email" && a.Value === email),
        );
        return user?.ConfirmationCode;
      },
      async stop() {
        await new Promise<void>((ok) => server.close(() => ok()));
        await stopChild(child);
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    bridge.close();
    await stopChild(child);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/x-amz-json-1.1" });
  res.end(JSON.stringify(body));
}

async function handleBridge(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: string,
  bridged: string[],
): Promise<void> {
  cors(req, res);
  if (req.method === "OPTIONS") {
    res.writeHead(204).end();
    return;
  }
  try {
    const body = await readBody(req);
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
    switch (action) {
      case "GetTokensFromRefreshToken": {
        bridged.push(action);
        const out = await cognitoCall<{ AuthenticationResult?: Record<string, unknown> }>(upstream, "InitiateAuth", {
          AuthFlow: "REFRESH_TOKEN_AUTH",
          ClientId: input.ClientId,
          AuthParameters: { REFRESH_TOKEN: input.RefreshToken },
        });
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
        bridged.push(action);
        send(res, 200, { Devices: [] });
        return;
      case "GlobalSignOut":
        bridged.push(action);
        send(res, 200, {});
        return;
    }
    const forwarded = await postTarget(upstream, target, body);
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

function maskEmail(email: string): string {
  const [name = "", host = ""] = email.split("@");
  return `${name.slice(0, 1)}***@${host.slice(0, 1)}***`;
}
