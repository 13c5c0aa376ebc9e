/**
 * Verifies user pool tokens as API Gateway's or AppSync's Cognito authorizer does: an RS256 JWT
 * signed by a key in the pool's JWKS (`<issuer>/.well-known/jwks.json`, which both Cognito and
 * cognito-local serve), from this pool (`iss`), for this app client (`aud` on ID tokens,
 * `client_id` on access tokens), not expired. node:crypto only; the JWKS is fetched once and again
 * when a token names a key it does not have (key rotation), at most once a minute.
 */
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from "node:crypto";

export interface VerifiedToken {
  sub: string;
  /** ID tokens carry it; access tokens do not. */
  email?: string;
  tokenUse: "id" | "access";
}

export interface TokenVerifierOptions {
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>`, or cognito-local's `http://127.0.0.1:<port>/<poolId>`. */
  issuer: string;
  clientId: string;
  now?: () => Date;
  fetchJwks?: (url: string) => Promise<{ keys: (JsonWebKey & { kid?: string })[] }>;
}

/** Why a token was refused; the message is for the server log, the donor sees the catalogue's sentence. */
export class TokenRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "TokenRejected";
  }
}

/** The pool's keys could not be fetched: nobody's token can be checked until they can. */
export class KeysUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "KeysUnavailable";
  }
}

/** A token naming an unknown key refetches the JWKS at most this often, so forged tokens cannot make us hammer the pool. */
const REFETCH_INTERVAL_MS = 60_000;

const base64url = (text: string) => Buffer.from(text, "base64url");

function decodePart(text: string | undefined): Record<string, unknown> {
  if (!text || !/^[A-Za-z0-9_-]+$/.test(text)) throw new TokenRejected("not a JWT");
  try {
    const value = JSON.parse(base64url(text).toString("utf8")) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error();
    return value as Record<string, unknown>;
  } catch {
    throw new TokenRejected("not a JWT");
  }
}

export function createTokenVerifier(options: TokenVerifierOptions) {
  const issuer = options.issuer.replace(/\/+$/, "");
  const now = options.now ?? (() => new Date());
  const fetchJwks =
    options.fetchJwks ??
    (async (url: string) => {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
      return (await res.json()) as { keys: (JsonWebKey & { kid?: string })[] };
    });
  let keys: Map<string, KeyObject> | null = null;
  let loading: Promise<Map<string, KeyObject>> | null = null;
  let loadedAt = -Infinity;

  async function load(): Promise<Map<string, KeyObject>> {
    const url = `${issuer}/.well-known/jwks.json`;
    loading ??= fetchJwks(url)
      .then(
        (jwks) =>
          new Map(jwks.keys.filter((k) => k.kid).map((k) => [k.kid!, createPublicKey({ key: k, format: "jwk" })])),
      )
      .catch((error: unknown) => {
        throw new KeysUnavailable(`could not load ${url}: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => (loading = null));
    keys = await loading;
    loadedAt = Date.now();
    return keys;
  }

  return async function verifyToken(token: string): Promise<VerifiedToken> {
    const parts = token.split(".");
    if (parts.length !== 3) throw new TokenRejected("not a JWT");
    const header = decodePart(parts[0]);
    const claims = decodePart(parts[1]);
    if (header.alg !== "RS256") throw new TokenRejected(`alg ${String(header.alg)} is not RS256`);
    const kid = String(header.kid ?? "");
    let key = (keys ?? (await load())).get(kid);
    if (!key && Date.now() - loadedAt >= REFETCH_INTERVAL_MS) key = (await load()).get(kid);
    if (!key) throw new TokenRejected(`no key ${kid} in the pool's JWKS`);
    const signed = verify("RSA-SHA256", Buffer.from(`${parts[0]}.${parts[1]}`), key, base64url(parts[2]!));
    if (!signed) throw new TokenRejected("bad signature");
    if (claims.iss !== issuer) throw new TokenRejected(`issuer ${String(claims.iss)} is not ${issuer}`);
    if (typeof claims.exp !== "number" || claims.exp * 1000 <= now().getTime()) throw new TokenRejected("expired");
    const use = claims.token_use;
    if (
      use === "id" ? claims.aud !== options.clientId : use === "access" ? claims.client_id !== options.clientId : true
    ) {
      throw new TokenRejected("not an ID or access token for this app client");
    }
    if (typeof claims.sub !== "string" || claims.sub === "") throw new TokenRejected("no sub");
    return {
      sub: claims.sub,
      email: typeof claims.email === "string" ? claims.email.toLowerCase() : undefined,
      tokenUse: use as "id" | "access",
    };
  };
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;

/** The token from `Authorization: Bearer <token>` (AppSync also accepts the bare token). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*(?:Bearer\s+)?(\S+)\s*$/i.exec(header);
  return match?.[1];
}
