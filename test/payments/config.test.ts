import { describe, expect, it } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { findSecretKeys, readPaymentsBuildConfig } from "../../src/payments/config.js";

const API = "https://abc123.execute-api.ap-southeast-2.amazonaws.com/main/";

function configError(env: Record<string, string>): NzfError {
  try {
    readPaymentsBuildConfig(env);
  } catch (error) {
    if (error instanceof NzfError) return error;
    throw error;
  }
  throw new Error("expected a configuration error");
}

describe("payments build configuration", () => {
  it("reads the base URL (without its trailing slash) and the publishable key", () => {
    expect(readPaymentsBuildConfig({ PAYMENTS_API_URL: API, STRIPE_PUBLISHABLE_KEY: "pk_test_51Abc" })).toEqual({
      apiUrl: "https://abc123.execute-api.ap-southeast-2.amazonaws.com/main",
      publishableKey: "pk_test_51Abc",
    });
    expect(
      readPaymentsBuildConfig({ PAYMENTS_API_URL: "http://127.0.0.1:4010", STRIPE_PUBLISHABLE_KEY: "pk_test_x" })
        .apiUrl,
    ).toBe("http://127.0.0.1:4010");
  });

  it("offers PayPal with a client ID beside a configured payments API, and refuses one that cannot work", () => {
    const id = "AeX9-paypal_client_id_0123456789abcdefghij";
    const cards = { PAYMENTS_API_URL: API, STRIPE_PUBLISHABLE_KEY: "pk_test_51Abc" };
    expect(readPaymentsBuildConfig({ ...cards, NZF_PAYPAL_CLIENT_ID: ` ${id} ` }).paypalClientId).toBe(id);
    expect("paypalClientId" in readPaymentsBuildConfig(cards)).toBe(false);
    const bad = configError({ ...cards, NZF_PAYPAL_CLIENT_ID: "secret: xyz" });
    expect([bad.code, bad.subject]).toEqual(["CONFIG_INVALID", "NZF_PAYPAL_CLIENT_ID"]);
    expect(bad.hint).toContain("Client ID (not the secret)");
    const alone = configError({ NZF_PAYPAL_CLIENT_ID: id });
    expect(alone.message).toContain("payments API is not");
    expect(alone.subject).toBe("NZF_PAYPAL_CLIENT_ID");
  });

  it("leaves payments off when neither is set", () => {
    expect(readPaymentsBuildConfig({})).toEqual({ apiUrl: null, publishableKey: null });
  });

  it("stops the build on a secret key, without printing it", () => {
    const error = configError({ PAYMENTS_API_URL: API, STRIPE_PUBLISHABLE_KEY: "sk_live_51Hsecretsecretsecret" });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.subject).toBe("STRIPE_PUBLISHABLE_KEY");
    expect(error.message).toContain("secret key");
    expect(error.message).not.toContain("secretsecretsecret");
  });

  it("refuses half a configuration, plain http to a remote host, and non-keys", () => {
    expect(configError({ PAYMENTS_API_URL: API }).subject).toBe("STRIPE_PUBLISHABLE_KEY");
    expect(
      configError({ PAYMENTS_API_URL: "http://api.example.com", STRIPE_PUBLISHABLE_KEY: "pk_live_x" }).message,
    ).toContain("https");
    expect(configError({ PAYMENTS_API_URL: API, STRIPE_PUBLISHABLE_KEY: "hello" }).subject).toBe(
      "STRIPE_PUBLISHABLE_KEY",
    );
  });

  it("finds secret keys in built files and masks them", () => {
    const bundle = 'const a="pk_live_51Okay";const b="sk_test_51HxyzABCDEFGH";const c="whsec_ABCDEFGHIJ";';
    expect(findSecretKeys(bundle)).toEqual(["sk_test_51Hx…", "whsec_ABCDEF…"]);
    expect(findSecretKeys('pk_live_51Okay "task_test_runner"')).toEqual([]);
  });
});
