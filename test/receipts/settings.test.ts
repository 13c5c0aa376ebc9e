import { describe, expect, it } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { readReceiptSettings } from "../../src/receipts/settings.js";

const ISSUER = {
  NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
  NZF_FOUNDATION_ABN: "51824753556",
  NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
};

function refusal(env: Record<string, string>): NzfError {
  try {
    readReceiptSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(NzfError);
    return error as NzfError;
  }
  throw new Error("the settings were accepted");
}

describe("receipt settings", () => {
  it("send nothing by default, and keep the issuer when given", () => {
    expect(readReceiptSettings({})).toEqual({ issuer: null, from: null, transport: { kind: "none" } });
    expect(readReceiptSettings({ ...ISSUER, NZF_MAIL_TRANSPORT: "" }).issuer).toEqual({
      name: "National Zakat Foundation Australia",
      abn: "51 824 753 556",
    });
  });

  it("read SMTP and SES", () => {
    expect(
      readReceiptSettings({ ...ISSUER, NZF_MAIL_TRANSPORT: "smtp", NZF_SMTP_URL: "smtp://127.0.0.1:2525" }).transport,
    ).toEqual({ kind: "smtp", url: "smtp://127.0.0.1:2525" });
    expect(readReceiptSettings({ ...ISSUER, NZF_MAIL_TRANSPORT: "ses" }).transport).toEqual({
      kind: "ses",
      region: "ap-southeast-2",
    });
    expect(
      readReceiptSettings({
        ...ISSUER,
        NZF_MAIL_TRANSPORT: "ses",
        AWS_REGION: "us-east-1",
        NZF_SES_ENDPOINT: "http://127.0.0.1:4566",
      }).transport,
    ).toEqual({ kind: "ses", region: "us-east-1", endpoint: "http://127.0.0.1:4566" });
  });

  it("refuse a wrong ABN, naming the variable", () => {
    const error = refusal({ ...ISSUER, NZF_FOUNDATION_ABN: "51 824 753 557" });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.subject).toBe("NZF_FOUNDATION_ABN");
    expect(error.message).toContain('NZF_FOUNDATION_ABN="51 824 753 557"');
  });

  it.each([
    [{ NZF_MAIL_TRANSPORT: "smtp" }, "NZF_SMTP_URL"],
    [{ NZF_MAIL_TRANSPORT: "smtp", NZF_SMTP_URL: "http://mail.example.org" }, "NZF_SMTP_URL"],
    [{ NZF_MAIL_TRANSPORT: "smtp", NZF_SMTP_URL: "not a url" }, "NZF_SMTP_URL"],
    [{ NZF_MAIL_TRANSPORT: "sendgrid" }, "NZF_MAIL_TRANSPORT"],
    [{ NZF_MAIL_TRANSPORT: "ses", NZF_SES_REGION: "sydney" }, "NZF_SES_REGION"],
    [{ NZF_MAIL_TRANSPORT: "ses", NZF_SES_ENDPOINT: "file:///etc/passwd" }, "NZF_SES_ENDPOINT"],
    [{ NZF_RECEIPT_FROM: "receipts@nzf.org.au\r\nBcc: x@example.org" }, "NZF_RECEIPT_FROM"],
    [{ NZF_RECEIPT_CONTACT_EMAIL: "info" }, "NZF_RECEIPT_CONTACT_EMAIL"],
  ])("refuse %j (%s)", (change, variable) => {
    expect(refusal({ ...ISSUER, ...change }).subject).toBe(variable);
  });

  it("need the name, the ABN and the sender once mail is sent", () => {
    for (const missing of ["NZF_FOUNDATION_NAME", "NZF_FOUNDATION_ABN", "NZF_RECEIPT_FROM"] as const) {
      const env: Record<string, string> = { ...ISSUER, NZF_MAIL_TRANSPORT: "ses" };
      delete env[missing];
      expect(refusal(env).subject, missing).toBe(missing);
    }
  });
});
