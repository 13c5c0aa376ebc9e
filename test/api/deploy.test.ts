/**
 * The payments service's deployment: the CloudFormation template is valid JSON that names what it
 * must (Lambda, HTTP API stage main with CORS for the site, PostgreSQL 15 on RDS, the secrets in
 * Secrets Manager, ap-southeast-2) and holds no secret; and the Lambda handler answers an API
 * Gateway (payload 2.0) event through the same application, on PostgreSQL when CI has one.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { apiStackTemplate } from "../../src/api/deploy/template.js";
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
