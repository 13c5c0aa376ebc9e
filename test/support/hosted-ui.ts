/**
 * Test harness: the user pool's hosted sign-in (Cognito's "managed login" domain) played by
 * `oidc-provider`, a certified OpenID Connect provider, on 127.0.0.1 over HTTPS (Amplify builds
 * `https://<domain>/oauth2/...` itself, so the stand-in must speak TLS; the certificate is a
 * throw-away self-signed one made with the openssl command, and browsers are told to accept it).
 *
 * It answers on Cognito's paths: `/oauth2/authorize` (authorization code with PKCE S256, required
 * for every client, as for a public app client), `/oauth2/token` and `/logout?client_id&logout_uri`
 * (Cognito's names for RP-initiated logout's `post_logout_redirect_uri`; the provider's own logout
 * confirmation is submitted by the page itself, as Cognito asks nothing). The login page checks the
 * e-mail and password against the cognito-local pool (InitiateAuth USER_PASSWORD_AUTH), so the
 * donor is the pool's user, and the tokens are the pool's: issuer `<cognito-local>/<poolId>`,
 * signed with cognito-local's key (kid CognitoLocal), access tokens with Cognito's claims
 * (`token_use`, `client_id`, `username`, `scope`). That is what the real hosted UI does:
 * it issues the pool's own tokens, which GetUser and the account API accept. Differences, written
 * down: access tokens also carry an `aud` (the provider requires one in a JWT access token; Cognito's
 * have none, and nothing here reads it); the refresh token handed out is the pool's own (from the
 * login's InitiateAuth), as Cognito's hosted UI gives, so Amplify refreshes it at the pool
 * (GetTokensFromRefreshToken); scopes are granted without a consent page (Cognito shows none).
 *
 * `issuer` (or `answerAs(issuer)` later) plays a hosted domain that answers with another pool's
 * tokens; `otherClientId` is a second app client at the same domain (the attacker's).
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, request, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import Provider, { type ClientMetadata, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { type CognitoLocal, cognitoCall } from "./cognito-local.js";

export interface HostedUiOptions {
  cognito: CognitoLocal;
  /** The site's callback URLs (the app client's "Allowed callback URLs"). */
  redirectUris: string[];
  /** The app client's "Allowed sign-out URLs". */
  logoutUris: string[];
  /** The tokens' issuer; the pool's (cognito.issuer) unless a test plays another pool. */
  issuer?: string;
}

export interface TokenRequest {
  clientId: string | undefined;
  status: number;
  error?: string;
}

export interface HostedUi {
  /** What NZF_COGNITO_HOSTED_DOMAIN is set to: `127.0.0.1:<port>`. */
  domain: string;
  url: string;
  /** The issuer of the tokens it hands out now. */
  readonly issuer: string;
  /** From now on, answer as a hosted domain of the pool with this issuer (another pool's, in an attack). */
  answerAs(issuer: string): void;
  /** The second app client (the attacker's own), with the same callback URLs. */
  otherClientId: string;
  /** Every authorize request's query, in order. */
  authorizeRequests: URLSearchParams[];
  /** Every token request, with the answer's status. */
  tokenRequests: TokenRequest[];
  /** Sessions ended through /logout. */
  logouts: number;
  stop(): Promise<void>;
}

const RESOURCE = "urn:nzf:cognito-user-pool";
const ADMIN_SCOPE = "aws.cognito.signin.user.admin";
const exec = promisify(execFile);

async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(join(tmpdir(), "nzf-hosted-ui-"));
  try {
    await exec("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]).catch((error: Error) => {
      throw new Error(`The hosted sign-in stand-in needs the openssl command for its certificate: ${error.message}`);
    });
    return { key: await readFile(join(dir, "key.pem"), "utf8"), cert: await readFile(join(dir, "cert.pem"), "utf8") };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function cognitoLocalKey(): Promise<Record<string, unknown>> {
  const file = resolve(import.meta.dirname, "../../node_modules/cognito-local/lib/keys/cognitoLocal.private.json");
  const { jwk } = JSON.parse(await readFile(file, "utf8")) as { jwk: Record<string, unknown> };
  return { ...jwk, kid: "CognitoLocal", alg: "RS256", use: "sig" };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function loginPage(uid: string, error?: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>
<h1>Sign in</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></main></body></html>`;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, unknown>;
}

export async function startHostedUi(options: HostedUiOptions): Promise<HostedUi> {
  const { cognito } = options;
  const otherClientId = `attacker${randomBytes(8).toString("hex")}`;
  /** The pool's users who signed in here, by sub. */
  const accounts = new Map<
    string,
    { username: string; email: string; emailVerified: boolean; refreshToken?: string }
  >();
  const authorizeRequests: URLSearchParams[] = [];
  const tokenRequests: TokenRequest[] = [];
  let logouts = 0;

  const client = (clientId: string): ClientMetadata => ({
    client_id: clientId,
    token_endpoint_auth_method: "none",
    redirect_uris: options.redirectUris,
    post_logout_redirect_uris: options.logoutUris,
    response_types: ["code"],
    grant_types: ["authorization_code", "refresh_token"],
  });

  const signingKey = await cognitoLocalKey();
  const configuration = (): Configuration => ({
    clients: [client(cognito.clientId), client(otherClientId)],
    jwks: { keys: [signingKey as never] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    routes: {
      authorization: "/oauth2/authorize",
      token: "/oauth2/token",
      end_session: "/logout",
      userinfo: "/oauth2/userInfo",
      jwks: "/oauth2/jwks",
    },
    scopes: ["openid", "email", "profile", "offline_access"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["cognito:username"] },
    extraParams: ["identity_provider"],
    pkce: { required: () => true },
    ttl: { AccessToken: 3600, IdToken: 3600, AuthorizationCode: 300, Session: 3600, Grant: 3600, Interaction: 600 },
    issueRefreshToken: async () => true,
    conformIdTokenClaims: false,
    clientBasedCORS: (_ctx, origin, c) => (c.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified,
          "cognito:username": account.username,
        }),
      };
    },
    // Cognito asks no consent: the app client's scopes are granted on sign-in.
    async loadExistingGrant(ctx) {
      const oidc = ctx.oidc;
      const clientId = oidc.client!.clientId;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId, accountId: oidc.session!.accountId });
      grant.addOIDCScope("openid email profile");
      grant.addResourceScope(RESOURCE, ADMIN_SCOPE);
      await grant.save();
      return grant;
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // Cognito's /logout asks nothing: the confirmation form submits itself.
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><html lang="en"><head><title>Signing out</title></head><body>${form.replace(
            "</form>",
            '<input type="hidden" name="logout" value="yes"></form>',
          )}<script>document.forms[0].submit()</script></body></html>`;
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: ADMIN_SCOPE,
          accessTokenFormat: "jwt",
          accessTokenTTL: 3600,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    formats: {
      customizers: {
        // Cognito's access token claims (the provider insists on keeping `aud`, the resource).
        jwt: async (_ctx, token, jwt) => {
          const account = accounts.get(String("accountId" in token ? token.accountId : ""));
          jwt.payload.token_use = "access";
          jwt.payload.client_id = token.clientId;
          jwt.payload.username = account?.username;
          jwt.payload.event_id = randomUUID();
          jwt.payload.scope = `openid email profile ${ADMIN_SCOPE}`;
        },
      },
    },
  });

  const providerFor = (issuer: string) => {
    const provider = new Provider(issuer, configuration());
    // A stand-in that fails must say why (the provider answers only "server_error").
    provider.on("server_error", (_ctx, error) => console.error("hosted sign-in stand-in:", error));
    provider.on("end_session.success", () => {
      logouts += 1;
    });
    // Cognito's logout parameter is `logout_uri`; the provider's is post_logout_redirect_uri.
    provider.use(async (ctx, next) => {
      if (ctx.path === "/oauth2/authorize") authorizeRequests.push(new URLSearchParams(ctx.querystring));
      if (ctx.path === "/logout" && ctx.method === "GET") {
        const query = new URLSearchParams(ctx.querystring);
        const logoutUri = query.get("logout_uri");
        if (logoutUri !== null) {
          query.delete("logout_uri");
          query.set("post_logout_redirect_uri", logoutUri);
          ctx.querystring = query.toString();
        }
      }
      await next();
      // The browser's CORS preflight before Amplify's POST is not a token request.
      if (ctx.path === "/oauth2/token" && ctx.method !== "OPTIONS") {
        const body = ctx.body as { error?: string; refresh_token?: string; id_token?: string } | undefined;
        // The pool's own refresh token, as Cognito's hosted UI hands out: Amplify refreshes it at
        // the pool (GetTokensFromRefreshToken), never at this domain.
        if (ctx.status === 200 && body?.refresh_token && body.id_token) {
          const pool = accounts.get(String(claimsOf(body.id_token).sub))?.refreshToken;
          if (pool) body.refresh_token = pool;
        }
        tokenRequests.push({
          clientId: (ctx as KoaContextWithOIDC).oidc?.client?.clientId,
          status: ctx.status,
          ...(body?.error ? { error: body.error } : {}),
        });
      }
    });
    return { provider, callback: provider.callback() };
  };
  const providers = new Map<string, ReturnType<typeof providerFor>>();
  let current = providerFor(options.issuer ?? cognito.issuer);
  providers.set(options.issuer ?? cognito.issuer, current);

  const interaction = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const { provider } = current;
    const details = await provider.interactionDetails(req, res);
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(loginPage(details.uid));
      return;
    }
    if (!url.pathname.endsWith("/login")) throw new Error(`unexpected interaction ${url.pathname}`);
    const form = await formBody(req);
    const email = form.get("email") ?? "";
    try {
      const out = await cognitoCall<{
        AuthenticationResult?: { AccessToken: string; IdToken: string; RefreshToken?: string };
      }>(cognito.upstream, "InitiateAuth", {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: form.get("password") ?? "" },
      });
      const access = claimsOf(out.AuthenticationResult!.AccessToken);
      const id = claimsOf(out.AuthenticationResult!.IdToken);
      const sub = String(access.sub);
      accounts.set(sub, {
        username: String(access.username),
        email: String(id.email ?? email),
        emailVerified: id.email_verified === true || id.email_verified === "true",
        ...(out.AuthenticationResult!.RefreshToken ? { refreshToken: out.AuthenticationResult!.RefreshToken } : {}),
      });
      await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
    } catch {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(loginPage(details.uid, "Incorrect username or password."));
    }
  };

  const { key, cert } = await selfSignedCertificate();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://127.0.0.1");
    if (url.pathname.startsWith("/interaction/")) {
      interaction(req, res, url).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" });
        res.end(`interaction failed: ${error.message}`);
      });
      return;
    }
    void current.callback(req, res);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const domain = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    domain,
    url: `https://${domain}`,
    get issuer() {
      return current.provider.issuer;
    },
    answerAs(issuer) {
      const next = providers.get(issuer) ?? providerFor(issuer);
      providers.set(issuer, next);
      current = next;
    },
    otherClientId,
    authorizeRequests,
    tokenRequests,
    get logouts() {
      return logouts;
    },
    stop: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export interface Answer {
  status: number;
  location: string | undefined;
  cookies: string[];
  text: string;
}

/** One HTTPS request to the stand-in, accepting its self-signed certificate. */
export function call(
  url: string,
  init: { method?: string; cookies?: string[]; body?: string; origin?: string } = {},
): Promise<Answer> {
  return new Promise((ok, fail) => {
    const headers: Record<string, string> = {};
    if (init.cookies?.length) headers.cookie = init.cookies.join("; ");
    if (init.body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    if (init.origin) headers.origin = init.origin;
    const req = request(url, { method: init.method ?? "GET", headers, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        ok({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          cookies: (res.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!),
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.on("error", fail);
    req.end(init.body);
  });
}

export function pkce() {
  const verifier = randomBytes(96).toString("base64url").slice(0, 128);
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * What a browser does on the hosted pages, over HTTP: authorize, sign in on the login page, and
 * return the code sent to the redirect URI (an attacker's own code, in the tests that inject one).
 */
export async function codeFor(
  hosted: HostedUi,
  input: { clientId: string; challenge: string; redirectUri: string; email: string; password: string; state?: string },
): Promise<string> {
  const { clientId, challenge, redirectUri: SITE, email, password } = input;
  const state = input.state ?? "s".repeat(32);
  const query = new URLSearchParams({
    redirect_uri: SITE,
    response_type: "code",
    client_id: clientId,
    identity_provider: "COGNITO",
    scope: "openid email profile aws.cognito.signin.user.admin",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  let answer = await call(`${hosted.url}/oauth2/authorize?${query}`);
  const jar = [...answer.cookies];
  if (answer.status !== 303) throw new Error(`authorize answered ${answer.status}: ${answer.text}`);
  const loginUrl = new URL(answer.location!, hosted.url).href;
  await call(loginUrl, { cookies: jar });
  answer = await call(`${loginUrl}/login`, {
    method: "POST",
    cookies: jar,
    body: new URLSearchParams({ email, password }).toString(),
  });
  jar.push(...answer.cookies);
  // The provider resumes the authorization request, then redirects to the site with the code.
  for (let hops = 0; answer.location && !answer.location.startsWith(SITE) && hops < 5; hops++) {
    answer = await call(new URL(answer.location, hosted.url).href, { cookies: jar });
    jar.push(...answer.cookies);
  }
  const back = new URL(answer.location ?? "about:blank");
  const code = back.searchParams.get("code");
  if (!code || back.searchParams.get("state") !== state) throw new Error(`no code: ${answer.status} ${answer.text}`);
  return code;
}
