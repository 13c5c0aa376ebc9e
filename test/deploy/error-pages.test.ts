import { describe, expect, it } from "vitest";
import { cloudFormationTemplate, SERVER_ERRORS } from "../../src/deploy/edge-files.js";

interface ErrorResponse {
  ErrorCode: number;
  ResponseCode: number;
  ResponsePagePath: string;
  ErrorCachingMinTTL?: number;
}

describe("the distribution's error pages", () => {
  it("serves 404.html for missing keys and 500.html, with the same status, for 500, 502, 503 and 504", () => {
    const template = cloudFormationTemplate("default-src 'self'") as {
      Resources: { Distribution: { Properties: { DistributionConfig: { CustomErrorResponses: ErrorResponse[] } } } };
    };
    const responses = template.Resources.Distribution.Properties.DistributionConfig.CustomErrorResponses;
    const byCode = new Map(responses.map((r) => [r.ErrorCode, r]));
    expect(byCode.get(403)).toMatchObject({ ResponseCode: 404, ResponsePagePath: "/404.html" });
    expect(byCode.get(404)).toMatchObject({ ResponseCode: 404, ResponsePagePath: "/404.html" });
    expect([...SERVER_ERRORS]).toEqual([500, 502, 503, 504]);
    for (const code of SERVER_ERRORS)
      expect(byCode.get(code)).toEqual({
        ErrorCode: code,
        ResponseCode: code,
        ResponsePagePath: "/500.html",
        ErrorCachingMinTTL: 10,
      });
  });
});
