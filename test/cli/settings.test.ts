import { describe, expect, it } from "vitest";
import { checkSiteUrl } from "../../src/core/config.js";
import { resolveSettings } from "../../src/cli/settings.js";

describe("checkSiteUrl: an origin only", () => {
  it("accepts an origin, with or without the trailing slash, and normalises it", () => {
    expect(checkSiteUrl("https://nzf.org.au", "SITE_URL")).toBe("https://nzf.org.au");
    expect(checkSiteUrl("https://NZF.org.au:443/", "SITE_URL")).toBe("https://nzf.org.au");
    expect(checkSiteUrl("http://127.0.0.1:8080/", "--site-url")).toBe("http://127.0.0.1:8080");
  });

  it.each([
    ["https://x.org?y=1", "has a query string"],
    ["https://x.org/?", "has a query string"],
    ["https://x.org/#top", "has a fragment"],
    ["https://x.org/base/", "has a path (/base/)"],
    ["https://user:pw@x.org", "contains credentials"],
    ["ftp://x.org", "uses ftp"],
    ["x.org", "is not an absolute URL"],
  ])("refuses %s: %s, naming the source", (value, problem) => {
    expect(() => checkSiteUrl(value, "SITE_URL")).toThrow(
      expect.objectContaining({
        code: "CONFIG_INVALID",
        subject: "SITE_URL",
        message: expect.stringContaining(problem),
      }),
    );
  });
});

describe("resolveSettings", () => {
  it("takes a flag over a variable, and an empty variable as unset", () => {
    const env = { SITE_URL: "https://env.example", NZF_OUT_DIR: "", PRISMIC_REPOSITORY: "nzf-env" };
    const settings = resolveSettings("build", { siteUrl: "https://flag.example" }, env, "/project");
    expect(settings.build).toMatchObject({
      siteUrl: "https://flag.example",
      outDir: "/project/dist",
      repository: "nzf-env",
    });
  });

  it("gives watch and webhook their ports, checked before anything else", () => {
    expect(resolveSettings("watch", {}, {}, "/p").watch).toEqual({ port: 4321, host: "127.0.0.1" });
    expect(resolveSettings("webhook", {}, { PORT: "9000", NZF_WEBHOOK_SECRET: "s" }, "/p").webhook?.port).toBe(9000);
    expect(
      resolveSettings("webhook", {}, { PORT: "9000", NZF_WEBHOOK_PORT: "9001", NZF_WEBHOOK_SECRET: "s" }, "/p").webhook
        ?.port,
    ).toBe(9001);
    expect(() => resolveSettings("watch", { port: "4321x" }, { PRISMIC_REPOSITORY: "ab" }, "/p")).toThrow(
      expect.objectContaining({ subject: "--port" }),
    );
  });

  it("resolves the public configuration for every command that builds, and not for fetch", () => {
    const env = {
      NZF_COGNITO_USER_POOL_ID: "ap-southeast-2_Abc1",
      NZF_COGNITO_CLIENT_ID: "client1",
      NZF_WEBHOOK_SECRET: "s",
    };
    for (const command of ["build", "watch", "webhook"] as const) {
      expect(resolveSettings(command, {}, env, "/p").publicConfig?.auth?.userPoolId).toBe("ap-southeast-2_Abc1");
    }
    expect(resolveSettings("fetch", {}, { NZF_COGNITO_USER_POOL_ID: "garbage" }, "/p").publicConfig).toBeUndefined();
    expect(() => resolveSettings("build", {}, { ...env, NZF_COGNITO_USER_POOL_ID: "garbage" }, "/p")).toThrow(
      expect.objectContaining({ subject: "NZF_COGNITO_USER_POOL_ID" }),
    );
  });

  it("refuses a sign-in setting given without a user pool; the defaults alone build without sign-in", () => {
    expect(resolveSettings("build", {}, {}, "/p").publicConfig?.auth).toBeNull();
    expect(() => resolveSettings("build", {}, { NZF_COGNITO_MFA: "on" }, "/p")).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", subject: "NZF_COGNITO_MFA" }),
    );
    // Given as the default value is still given: it says what the site was meant to have.
    expect(() => resolveSettings("build", {}, { NZF_COGNITO_REGION: "ap-southeast-2" }, "/p")).toThrow(
      expect.objectContaining({ subject: "NZF_COGNITO_REGION" }),
    );
  });

  it("refuses a flag the command does not take", () => {
    expect(() => resolveSettings("fetch", { out: "x" }, {}, "/p")).toThrow(
      /--out does not apply to nzf-build fetch; it is an option of nzf-build, nzf-build --watch, nzf-build webhook, nzf-build preview and nzf-build deploy/,
    );
    expect(() => resolveSettings("build", { secret: "x" }, {}, "/p")).toThrow(
      /--secret does not apply to nzf-build; it is an option of nzf-build webhook/,
    );
  });
});

describe("resolveSettings: the deploy", () => {
  it("nzf-build deploy needs a bucket, and says where to give it", () => {
    expect(() => resolveSettings("deploy", {}, {}, "/p")).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID", subject: "NZF_S3_BUCKET" }),
    );
    expect(resolveSettings("deploy", { bucket: "nzf-site" }, {}, "/p").deploy).toEqual({
      bucket: "nzf-site",
      region: "ap-southeast-2",
      dryRun: false,
      timeoutMs: 600_000,
    });
  });

  it("a build deploys only with --deploy; --dry-run alone is refused", () => {
    expect(resolveSettings("build", { bucket: "nzf-site" }, {}, "/p").deploy).toBeUndefined();
    expect(
      resolveSettings(
        "build",
        { deploy: true, dryRun: true },
        { NZF_S3_BUCKET: "nzf-site", AWS_REGION: "eu-west-1" },
        "/p",
      ).deploy,
    ).toMatchObject({ bucket: "nzf-site", region: "eu-west-1", dryRun: true });
    expect(() => resolveSettings("build", { dryRun: true }, { NZF_S3_BUCKET: "nzf-site" }, "/p")).toThrow(
      /--dry-run prints a deploy's plan/,
    );
    expect(() => resolveSettings("build", { deploy: true }, {}, "/p")).toThrow(/No S3 bucket was given/);
    // A plan needs no bucket: it is made offline against the last deploy recorded here.
    expect(resolveSettings("deploy", { dryRun: true }, { AWS_REGION: "eu-west-1" }, "/p").deploy).toEqual({
      dryRun: true,
      region: "eu-west-1",
    });
  });

  it("the webhook server deploys in-process with a bucket, and refuses a bucket and a deploy command together", () => {
    expect(resolveSettings("webhook", { secret: "s" }, { NZF_S3_BUCKET: "nzf-site" }, "/p").deploy).toMatchObject({
      bucket: "nzf-site",
    });
    expect(resolveSettings("webhook", { secret: "s" }, {}, "/p").deploy).toBeUndefined();
    expect(() =>
      resolveSettings(
        "webhook",
        { secret: "s", deployCommand: "aws s3 sync dist s3://x" },
        { NZF_S3_BUCKET: "nzf-site" },
        "/p",
      ),
    ).toThrow(/both a bucket to deploy to and a deploy command/);
  });
});
