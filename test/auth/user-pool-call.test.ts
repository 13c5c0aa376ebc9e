/** One user pool call without the auth library: the endpoint, the target header, and Cognito's errors by name. */
import { describe, expect, it } from "vitest";
import { describeAuthError } from "../../src/auth/messages.js";
import { userPoolCall, userPoolEndpoint } from "../../src/auth/user-pool-call.js";

describe("userPoolCall", () => {
  it("finds the endpoint: the custom one, or Cognito's in the pool's region", () => {
    expect(userPoolEndpoint({ userPoolId: "ap-southeast-2_Abc123" })).toBe(
      "https://cognito-idp.ap-southeast-2.amazonaws.com/",
    );
    expect(userPoolEndpoint({ userPoolId: "local_x", userPoolEndpoint: "http://127.0.0.1:9229" })).toBe(
      "http://127.0.0.1:9229/",
    );
  });

  it("posts JSON with the action in X-Amz-Target; a refusal is an error named after Cognito's exception", async () => {
    const seen: { url: string; target: string | null; body: string }[] = [];
    const fake = (status: number, body: unknown) =>
      (async (url: string, init: RequestInit) => {
        seen.push({ url, target: new Headers(init.headers).get("x-amz-target"), body: String(init.body) });
        return new Response(JSON.stringify(body), { status });
      }) as unknown as typeof fetch;
    expect(await userPoolCall("http://pool.test/", "GlobalSignOut", { AccessToken: "a" }, fake(200, {}))).toEqual({});
    expect(seen[0]).toEqual({
      url: "http://pool.test/",
      target: "AWSCognitoIdentityProviderService.GlobalSignOut",
      body: '{"AccessToken":"a"}',
    });
    const error = await userPoolCall(
      "http://pool.test/",
      "GlobalSignOut",
      { AccessToken: "a" },
      fake(400, { __type: "com.amazonaws.cognito#NotAuthorizedException", message: "Access Token has been revoked" }),
    ).catch((e: unknown) => e as Error);
    expect((error as Error).name).toBe("NotAuthorizedException");
    expect(describeAuthError(error, "account")).toMatchObject({
      message: "You were signed out on all devices. Please sign in again.",
      invalidatesSession: true,
    });
  });
});
