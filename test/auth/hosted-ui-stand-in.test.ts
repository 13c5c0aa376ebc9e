/**
 * The hosted sign-in stand-in (oidc-provider on Cognito's paths) over HTTPS, as a browser would
 * walk it, and the attacks on its token endpoint: a replayed code, a code redeemed by another app
 * client, a wrong PKCE verifier, a wrong redirect URI. Its tokens are the pool's: the account
 * API's verifier (aws-jwt-verify) and the pool's GetUser accept them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenVerifier } from "../../src/account-api/tokens.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";
import { call, pkce, startHostedUi, codeFor as signInForCode, type HostedUi } from "../support/hosted-ui.js";

const SITE = "http://127.0.0.1:9/account/";
let cognito: CognitoLocal;
let hosted: HostedUi;
const email = "hosted@example.org";
const password = "eight ch";

const codeFor = (clientId: string, challenge: string) =>
  signInForCode(hosted, { clientId, challenge, redirectUri: SITE, email, password });

function redeem(body: Record<string, string>) {
  return call(`${hosted.url}/oauth2/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "authorization_code", redirect_uri: SITE, ...body }).toString(),
    origin: new URL(SITE).origin,
  });
}

beforeAll(async () => {
  cognito = await startCognitoLocal();
  await cognito.call("SignUp", { ClientId: cognito.clientId, Username: email, Password: password });
  await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: cognito.code });
  hosted = await startHostedUi({ cognito, redirectUris: [SITE], logoutUris: [SITE] });
});
afterAll(async () => {
  await hosted?.stop();
  await cognito?.stop();
});

describe("the hosted sign-in stand-in", () => {
  it("exchanges a code with its PKCE verifier for the pool's own tokens", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(cognito.clientId, challenge);
    const answer = await redeem({ code, client_id: cognito.clientId, code_verifier: verifier });
    expect(answer.status, answer.text).toBe(200);
    const tokens = JSON.parse(answer.text) as { access_token: string; id_token: string; refresh_token?: string };
    expect(tokens.refresh_token).toBeTruthy();
    const verify = createTokenVerifier({
      userPoolId: cognito.userPoolId,
      clientId: cognito.clientId,
      endpoint: cognito.endpoint,
    });
    const { sub } = await verify(tokens.access_token);
    const user = await cognito.call<{ UserAttributes: { Name: string; Value: string }[] }>("GetUser", {
      AccessToken: tokens.access_token,
    });
    expect(user.UserAttributes).toContainEqual({ Name: "email", Value: email });
    expect(user.UserAttributes).toContainEqual({ Name: "sub", Value: sub });
    const id = JSON.parse(Buffer.from(tokens.id_token.split(".")[1]!, "base64url").toString()) as Record<
      string,
      unknown
    >;
    expect(id).toMatchObject({ iss: cognito.issuer, aud: cognito.clientId, sub, email });
  });

  it("refuses a code redeemed twice", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(cognito.clientId, challenge);
    expect((await redeem({ code, client_id: cognito.clientId, code_verifier: verifier })).status).toBe(200);
    const again = await redeem({ code, client_id: cognito.clientId, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text)).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a code issued to another app client", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(hosted.otherClientId, challenge);
    const answer = await redeem({ code, client_id: cognito.clientId, code_verifier: verifier });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a verifier that does not match the challenge, and an authorize request without PKCE", async () => {
    const { challenge } = pkce();
    const code = await codeFor(cognito.clientId, challenge);
    const answer = await redeem({ code, client_id: cognito.clientId, code_verifier: pkce().verifier });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: "invalid_grant" });
    const plain = await call(
      `${hosted.url}/oauth2/authorize?${new URLSearchParams({ redirect_uri: SITE, response_type: "code", client_id: cognito.clientId, scope: "openid", state: "x" })}`,
    );
    expect(plain.status).toBe(303);
    expect(new URL(plain.location!).searchParams.get("error")).toBe("invalid_request");
  });

  it("sends no code to a redirect URI the app client did not register", async () => {
    const answer = await call(
      `${hosted.url}/oauth2/authorize?${new URLSearchParams({ redirect_uri: "https://evil.example/account/", response_type: "code", client_id: cognito.clientId, scope: "openid", state: "x", code_challenge: pkce().challenge, code_challenge_method: "S256" })}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.location).toBeUndefined();
  });
});
