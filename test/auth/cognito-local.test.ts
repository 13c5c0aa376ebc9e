import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CognitoCallError, cognitoCall, startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";

let cognito: CognitoLocal;
beforeAll(async () => {
  cognito = await startCognitoLocal();
});
afterAll(async () => {
  await cognito?.stop();
});

function decodePayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8"));
}

describe("cognito-local harness", () => {
  it("starts on loopback with a pool that signs in by e-mail", async () => {
    expect(cognito.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cognito.userPoolId).toMatch(/^local_[0-9a-zA-Z]+$/);
    const pool = await cognito.call<{ UserPool: { UsernameAttributes: string[]; AutoVerifiedAttributes: string[] } }>(
      "DescribeUserPool",
      {
        UserPoolId: cognito.userPoolId,
      },
    );
    expect(pool.UserPool.UsernameAttributes).toEqual(["email"]);
    expect(pool.UserPool.AutoVerifiedAttributes).toEqual(["email"]);
  });

  it("signs up, confirms with the stored code and signs in with USER_PASSWORD_AUTH", async () => {
    const email = "amina@example.org";
    const signUp = await cognito.call<{ UserConfirmed: boolean; UserSub: string }>("SignUp", {
      ClientId: cognito.clientId,
      Username: email,
      Password: "long enough",
      UserAttributes: [{ Name: "email", Value: email }],
    });
    expect(signUp.UserConfirmed).toBe(false);

    const stored = await cognito.readStoredCode(email);
    expect(stored).toBe(cognito.code);

    await expect(
      cognito.call("InitiateAuth", {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: "long enough" },
      }),
    ).rejects.toMatchObject({ name: "UserNotConfirmedException" });
    await expect(
      cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: "000000" }),
    ).rejects.toMatchObject({ name: "CodeMismatchException" });
    await cognito.call("ConfirmSignUp", { ClientId: cognito.clientId, Username: email, ConfirmationCode: stored });

    const auth = await cognito.call<{
      AuthenticationResult: { AccessToken: string; IdToken: string; RefreshToken: string };
    }>("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: cognito.clientId,
      AuthParameters: { USERNAME: email, PASSWORD: "long enough" },
    });
    const id = decodePayload(auth.AuthenticationResult.IdToken);
    expect(id.email).toBe(email);
    expect(id.sub).toBe(signUp.UserSub);

    // The bridge turns GetTokensFromRefreshToken into REFRESH_TOKEN_AUTH.
    const refreshed = await cognito.call<{ AuthenticationResult: { AccessToken: string } }>(
      "GetTokensFromRefreshToken",
      {
        ClientId: cognito.clientId,
        RefreshToken: auth.AuthenticationResult.RefreshToken,
      },
    );
    expect(decodePayload(refreshed.AuthenticationResult.AccessToken).sub).toBe(signUp.UserSub);
    expect(cognito.bridged).toContain("GetTokensFromRefreshToken");
  });

  it("the emulator itself lacks GetTokensFromRefreshToken and SRP (why the bridge and USER_PASSWORD_AUTH exist)", async () => {
    const missing = await cognitoCall(cognito.upstream, "GetTokensFromRefreshToken", {
      ClientId: cognito.clientId,
      RefreshToken: "x",
    }).catch((e) => e);
    expect(missing).toBeInstanceOf(CognitoCallError);
    const srp = await cognitoCall(cognito.upstream, "InitiateAuth", {
      AuthFlow: "USER_SRP_AUTH",
      ClientId: cognito.clientId,
      AuthParameters: { USERNAME: "a@b.co", SRP_A: "1" },
    }).catch((e) => e);
    expect(srp).toBeInstanceOf(CognitoCallError);
  });

  it("answers CORS preflight for browsers", async () => {
    const res = await fetch(cognito.endpoint, {
      method: "OPTIONS",
      headers: {
        origin: "http://127.0.0.1:8080",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-amz-target",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:8080");
    expect(res.headers.get("access-control-allow-headers")).toBe("content-type,x-amz-target");
  });
});
