/**
 * Who is calling: the `sub` of a user pool ACCESS token, verified with AWS's own library
 * (aws-jwt-verify) against the pool's JWKS, as the API Gateway Cognito authorizer does. Checked:
 * the RS256 signature by a key of the pool, `iss` the pool, `token_use` "access", `client_id` the
 * site's app client, `exp`. ID tokens are refused: they carry the e-mail, and an e-mail is data
 * here, never a key to data (the donor's verified e-mail is read from the pool when needed, see
 * user-pool.ts).
 *
 * A real pool's issuer is `https://cognito-idp.<region>.amazonaws.com/<poolId>`, which
 * CognitoJwtVerifier derives from the pool id. cognito-local (watch mode's pool) issues tokens under
 * its own URL over plain HTTP, which CognitoJwtVerifier cannot name, so there the library's
 * generic JwtVerifier checks the same issuer and JWKS with the library's own Cognito claim check
 * (`validateCognitoJwtFields`).
 */
import { CognitoJwtVerifier } from "aws-jwt-verify";
import { validateCognitoJwtFields } from "aws-jwt-verify/cognito-verifier";
import { FetchError, JwtBaseError } from "aws-jwt-verify/error";
import { SimpleJwksCache } from "aws-jwt-verify/jwk";
import { JwtVerifier } from "aws-jwt-verify/jwt-verifier";

export interface VerifiedToken {
  /** The account's permanent id in the pool. */
  sub: string;
  /** The verified access token itself, for calls to the pool on the donor's behalf (GetUser). */
  accessToken: string;
}

export interface TokenVerifierOptions {
  userPoolId: string;
  clientId: string;
  /**
   * A custom pool endpoint (cognito-local): tokens are then issued by `<endpoint>/<poolId>`. Unset
   * for a real pool.
   */
  endpoint?: string;
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

export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/** The issuer of the pool's tokens: Cognito's URL for a real pool, or the custom endpoint's. */
export function poolIssuer(options: Pick<TokenVerifierOptions, "userPoolId" | "endpoint">): string {
  if (options.endpoint) return `${options.endpoint.replace(/\/+$/, "")}/${options.userPoolId}`;
  const region = options.userPoolId.slice(0, options.userPoolId.lastIndexOf("_"));
  return `https://cognito-idp.${region}.amazonaws.com/${options.userPoolId}`;
}

/** The pool's JWKS, fetched with a 5-second time-out. */
function jwksCache() {
  const get = async (uri: string) => {
    let res: Response;
    try {
      res = await fetch(uri, { signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new FetchError(uri, (error as Error).message);
    }
    if (!res.ok) throw new FetchError(uri, `answered ${res.status}`);
    return res.json();
  };
  return new SimpleJwksCache({
    fetcher: {
      fetch: async (uri: string) => new TextEncoder().encode(JSON.stringify(await get(uri))).buffer as ArrayBuffer,
    },
  });
}

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const cache = jwksCache();
  const checks = { tokenUse: "access", clientId: options.clientId } as const;
  let verify: (token: string) => Promise<{ sub?: unknown; exp?: unknown }>;
  if (options.endpoint) {
    const issuer = poolIssuer(options);
    const verifier = JwtVerifier.create(
      {
        issuer,
        jwksUri: `${issuer}/.well-known/jwks.json`,
        audience: null, // access tokens have no aud; validateCognitoJwtFields checks client_id
        customJwtCheck: ({ payload }) => validateCognitoJwtFields(payload, checks),
      },
      { jwksCache: cache },
    );
    verify = (token) => verifier.verify(token);
  } else {
    const verifier = CognitoJwtVerifier.create({ userPoolId: options.userPoolId, ...checks }, { jwksCache: cache });
    verify = (token) => verifier.verify(token);
  }
  return async (token: string) => {
    let claims: { sub?: unknown; exp?: unknown };
    try {
      claims = await verify(token);
    } catch (error) {
      if (error instanceof FetchError) throw new KeysUnavailable(error.message);
      if (error instanceof JwtBaseError) throw new TokenRejected(`${error.name}: ${error.message}`);
      throw error;
    }
    if (typeof claims.sub !== "string" || claims.sub === "") throw new TokenRejected("no sub");
    // The library checks exp only when present; every Cognito token has one, so one without is refused.
    if (typeof claims.exp !== "number") throw new TokenRejected("no exp");
    return { sub: claims.sub, accessToken: token };
  };
}

/** The token from `Authorization: Bearer <token>`. */
export function bearerToken(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
