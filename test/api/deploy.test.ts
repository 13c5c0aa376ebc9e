/**
 * The payments service's deployment: the CloudFormation template is valid JSON that names what it
 * must (Lambda, HTTP API stage main with CORS for the site, PostgreSQL 15 on RDS, the secrets in
 * Secrets Manager, ap-southeast-2) and holds no secret; and the Lambda handler answers an API
 * Gateway (payload 2.0) event through the same application, on PostgreSQL when CI has one.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { parameterSettings, secretVariables } from "../../src/api/deploy/lambda-settings.js";
import { readLambdaSecrets } from "../../src/api/deploy/secrets.js";
import { apiStackTemplate } from "../../src/api/deploy/template.js";
import { OPTIONS, type OptionSpec } from "../../src/core/options.js";
import { findSecretKeys } from "../../src/payments/config.js";
import { donationRequest } from "../support/donation-request.js";
import { postgresUrl } from "../support/api-db.js";

type Resource = { Type: string; Properties: Record<string, unknown> };

describe("the CloudFormation template", () => {
  const text = JSON.stringify(apiStackTemplate(), null, 2);
  const template = JSON.parse(text) as {
    Resources: Record<string, Resource>;
    Rules: unknown;
    Outputs: Record<string, unknown>;
  };
  const ofType = (type: string) => Object.values(template.Resources).filter((r) => r.Type === type);

  it("has the function, the HTTP API on stage main with the site's CORS, PostgreSQL and the secrets", () => {
    expect(
      ofType("AWS::Lambda::Function")
        .map((f) => f.Properties.Handler)
        .sort(),
    ).toEqual(["lambda.handler", "lambda.runJobs", "lambda.sendUpdates", "lambda.sweep"]);
    // E-mail updates go out by hand (no rule invokes that function), their links to this API.
    const rules = JSON.stringify(ofType("AWS::Events::Rule"));
    expect(rules).not.toContain("UpdatesFunction");
    expect(template.Resources.UpdatesFunction!.Properties).toMatchObject({
      Environment: { Variables: { PAYMENTS_API_URL: (template.Outputs.PaymentsApiUrl as { Value: unknown }).Value } },
    });
    expect(template.Outputs.UpdatesFunctionName).toMatchObject({ Value: { Ref: "UpdatesFunction" } });
    // Scheduled gifts and due receipts (issue 39) every 15 minutes; receipts through SES.
    expect(template.Resources.JobsSchedule!.Properties).toMatchObject({ ScheduleExpression: "rate(15 minutes)" });
    expect(JSON.stringify(template.Resources.FunctionRole)).toContain("ses:SendRawEmail");
    for (const f of ofType("AWS::Lambda::Function")) expect(f.Properties.Runtime).toBe("nodejs20.x");
    const [api] = ofType("AWS::ApiGatewayV2::Api");
    expect(api!.Properties).toMatchObject({
      ProtocolType: "HTTP",
      CorsConfiguration: { AllowOrigins: [{ Ref: "SiteOrigin" }], AllowMethods: ["GET", "POST", "PATCH", "OPTIONS"] },
    });
    expect(ofType("AWS::ApiGatewayV2::Stage")[0]!.Properties.StageName).toBe("main");
    expect(ofType("AWS::RDS::DBInstance")[0]!.Properties).toMatchObject({
      Engine: "postgres",
      EngineVersion: "15",
      ManageMasterUserPassword: true,
      PubliclyAccessible: false,
      StorageEncrypted: true,
    });
    expect(ofType("AWS::SecretsManager::Secret")).toHaveLength(1);
    expect(JSON.stringify(template.Rules)).toContain("ap-southeast-2");
    expect(Object.keys(template.Outputs)).toEqual(expect.arrayContaining(["PaymentsApiUrl", "StripeWebhookUrl"]));
  });

  it("holds no secret value", () => {
    expect(findSecretKeys(text)).toEqual([]);
    expect(text).not.toMatch(/sk_(live|test)_|whsec_[A-Za-z0-9]/);
  });

  const functions = Object.entries(template.Resources).filter(([, r]) => r.Type === "AWS::Lambda::Function");
  const environmentOf = (r: Resource) => (r.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  const parameters = (template as unknown as { Parameters: Record<string, { Default?: string; NoEcho?: boolean }> })
    .Parameters;

  it("gives all four functions every setting from a parameter, none set by hand (a release would wipe it)", () => {
    expect(functions).toHaveLength(4);
    const settings = parameterSettings();
    // What the previous releases left to be set by hand in each function's environment.
    expect(settings.map((s) => s.variable)).toEqual(
      expect.arrayContaining([
        "NZF_FOUNDATION_NAME",
        "NZF_FOUNDATION_ABN",
        "NZF_RECEIPT_FROM",
        "NZF_RECEIPT_CONTACT_EMAIL",
        "NZF_DONOR_CARE_EMAIL",
        "NZF_MAIL_TRANSPORT",
        "NZF_PAYPAL_CLIENT_ID",
        "NZF_PAYPAL_ENVIRONMENT",
        "NZF_PAYPAL_WEBHOOK_ID",
        "NZF_COGNITO_USER_POOL_ID",
        "NZF_COGNITO_CLIENT_ID",
        "PRISMIC_REPOSITORY",
        "SITE_URL",
        "NZF_API_ALLOWED_ORIGINS",
      ]),
    );
    for (const [name, fn] of functions) {
      const variables = environmentOf(fn);
      for (const s of settings) {
        expect(variables[s.variable], `${name} ${s.variable}`).toEqual({ Ref: s.parameter });
        expect(parameters[s.parameter], s.parameter).toBeDefined();
      }
      // One environment, shared: only the updates' function has the API's own URL besides.
      const { PAYMENTS_API_URL, ...shared } = variables;
      expect(shared).toEqual(environmentOf(template.Resources.ApiFunction!));
      expect(PAYMENTS_API_URL === undefined).toBe(name !== "UpdatesFunction");
    }
    // The site's origin is one parameter: CORS, the notices' links to /account/.
    expect(environmentOf(template.Resources.ApiFunction!).SITE_URL).toEqual({ Ref: "SiteOrigin" });
    // Defaults are the settings' own (src/core/options.ts), or empty: unset.
    expect(parameters.MailTransport).toMatchObject({ Default: "none", AllowedValues: ["none", "smtp", "ses"] });
    expect(parameters.PayPalEnvironment).toMatchObject({ Default: "sandbox", AllowedValues: ["sandbox", "live"] });
    expect(parameters.PrismicRepository).toMatchObject({ Default: "nzf2020" });
    expect(parameters.FoundationAbn).toMatchObject({ Default: "" });
  });

  it("keeps secrets out of the template and the environment: the functions read them from the stack's secret", () => {
    const secrets = secretVariables();
    expect(secrets).toEqual(
      expect.arrayContaining([
        "STRIPE_SECRET_KEY",
        "STRIPE_WEBHOOK_SECRET",
        "NZF_PAYPAL_CLIENT_SECRET",
        "PRISMIC_ACCESS_TOKEN",
        "NZF_SMTP_URL",
      ]),
    );
    for (const [, fn] of functions) for (const name of secrets) expect(environmentOf(fn)).not.toHaveProperty(name);
    for (const s of parameterSettings()) expect(secrets).not.toContain(s.variable);
    // Never changed: CloudFormation would put the placeholders back over the keys put into the secret.
    expect(template.Resources.StripeSecret!.Properties.SecretString).toBe(
      JSON.stringify({ STRIPE_SECRET_KEY: "set-me", STRIPE_WEBHOOK_SECRET: "set-me" }),
    );
  });

  it("agrees with src/core/options.ts and with what the service's code reads", async () => {
    const specs = OPTIONS as readonly OptionSpec[];
    // A setting of the service read from the environment says how AWS gives it (flags alone are the CLI's).
    const undeclared = specs.filter((s) => (s.commands as readonly string[]).includes("api") && s.env && !s.lambda);
    expect(undeclared.map((s) => s.key)).toEqual([]);
    // Every variable the Lambda's start reads is declared there, and given by the template, the secret or neither on purpose.
    const readers = [
      "src/api/lambda.ts",
      "src/api/config.ts",
      "src/api/fund-rules-source.ts",
      "src/api/paypal/settings.ts",
      "src/api/deploy/secrets.ts",
      "src/receipts/settings.ts",
      "src/account-api/service.ts",
    ];
    const read = new Set<string>();
    for (const file of readers)
      for (const m of (await readFile(file, "utf8")).matchAll(
        /\b(?:NZF|PRISMIC|STRIPE)_[A-Z0-9_]*[A-Z0-9]\b|\b(?:SITE|DATABASE|PAYMENTS_API)_URL\b/g,
      ))
        read.add(m[0]);
    const environment = environmentOf(template.Resources.UpdatesFunction!);
    const byVariable = new Map(specs.flatMap((s) => (s.env ?? []).map((v) => [v, s] as const)));
    const unexplained = [...read].filter((variable) => {
      if (variable in environment || secretVariables().includes(variable)) return false;
      const lambda = byVariable.get(variable)?.lambda;
      return lambda !== "unset" && lambda !== "template";
    });
    expect(unexplained).toEqual([]);
    expect(read.size).toBeGreaterThan(20);
  });

  it("is what docs/deploy.md tells the operator to pass: each parameter and each key of the secret", async () => {
    const guide = await readFile("docs/deploy.md", "utf8");
    for (const s of parameterSettings()) {
      expect(guide, s.parameter).toContain(`\`${s.parameter}\``);
      expect(guide, s.variable).toContain(`\`${s.variable}\``);
    }
    for (const name of secretVariables()) expect(guide, name).toContain(`\`${name}\``);
  });
});

describe("the functions' secrets", () => {
  it("come from the stack's secret: every key src/core/options.ts marks secret, nothing else", async () => {
    const secret = {
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      NZF_PAYPAL_CLIENT_SECRET: "paypal-secret",
      PRISMIC_ACCESS_TOKEN: "prismic-token",
      NZF_FOUNDATION_NAME: "not from here",
    };
    const asked: string[] = [];
    // Secrets Manager's JSON API, as the SDK calls it (X-Amz-Target: secretsmanager.GetSecretValue).
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c;
      });
      req.on("end", () => {
        asked.push(`${req.headers["x-amz-target"]} ${(JSON.parse(body) as { SecretId: string }).SecretId}`);
        res.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
        res.end(JSON.stringify({ ARN: "arn", Name: "nzf-payments/stripe", SecretString: JSON.stringify(secret) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const keep = { ...process.env };
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_REGION: "ap-southeast-2",
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "example",
    });
    try {
      const read = await readLambdaSecrets({ NZF_STRIPE_SECRET_ARN: "arn:aws:secretsmanager:stack/stripe" });
      expect(asked).toEqual(["secretsmanager.GetSecretValue arn:aws:secretsmanager:stack/stripe"]);
      expect(read).toEqual({
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        NZF_PAYPAL_CLIENT_SECRET: "paypal-secret",
        PRISMIC_ACCESS_TOKEN: "prismic-token",
      });
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in keep)) delete process.env[name];
      Object.assign(process.env, keep);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("the Lambda handler", () => {
  it("answers API Gateway's events under /main through the application, on PostgreSQL", async () => {
    const url = postgresUrl();
    if (!url) return;
    process.env.DATABASE_URL = url;
    process.env.NZF_API_ALLOWED_ORIGINS = "https://nzf.org.au";
    const { handler } = await import("../../src/api/lambda.js");
    const event = (method: string, path: string, body?: string, headers: Record<string, string> = {}) => ({
      version: "2.0",
      routeKey: "$default",
      rawPath: path,
      rawQueryString: "",
      headers: { host: "api.example", ...headers },
      requestContext: {
        http: { method, path, protocol: "HTTP/1.1", sourceIp: "203.0.113.7", userAgent: "test" },
        stage: "main",
        requestId: randomUUID(),
        domainName: "api.example",
        accountId: "123",
        apiId: "abc",
        domainPrefix: "abc",
        routeKey: "$default",
        time: "",
        timeEpoch: Date.now(),
      },
      isBase64Encoded: false,
      ...(body ? { body } : {}),
    });
    const call = (e: ReturnType<typeof event>) =>
      (
        handler as unknown as (
          e: unknown,
          c: unknown,
        ) => Promise<{ statusCode: number; body: string; headers: Record<string, string> }>
      )(e, {});
    const missing = await call(event("GET", "/main/donations/don_000000000000000000000000"));
    expect(missing.statusCode).toBe(404);
    // No Stripe key in this environment: a card gift is 503, and nothing is stored.
    const post = await call(
      event("POST", "/main/donations", JSON.stringify(donationRequest()), {
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
      }),
    );
    expect(post.statusCode).toBe(503);
    expect(JSON.parse(post.body)).toMatchObject({ error: { code: "unavailable" } });
  });
});
