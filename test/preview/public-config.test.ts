import { describe, expect, it } from "vitest";
import { parsePreviewConfig, previewPublicEnv, PREVIEW_CONFIG_ENV } from "../../src/preview/public-config.js";

describe("the preview's public configuration", () => {
  it("round-trips through the bundle constant with only public values", () => {
    const env = previewPublicEnv(
      {
        repository: "nzf2020",
        endpoint: "http://127.0.0.1:9999/api/v2",
        siteUrl: "https://nzf.org.au",
        accessToken: "MC5secret",
      } as never,
      { auth: { region: "ap-southeast-2" } },
    );
    expect(Object.keys(env)).toEqual([PREVIEW_CONFIG_ENV]);
    expect(env[PREVIEW_CONFIG_ENV]).not.toContain("MC5secret");
    expect(parsePreviewConfig(env[PREVIEW_CONFIG_ENV])).toEqual({
      repositoryName: "nzf2020",
      endpoint: "http://127.0.0.1:9999/api/v2",
      siteUrl: "https://nzf.org.au",
      promptForAccessToken: true,
      public: { auth: { region: "ap-southeast-2" } },
    });
  });

  it("leaves the endpoint out when the build uses the repository's default", () => {
    const parsed = parsePreviewConfig(
      previewPublicEnv({ repository: "nzf2020", siteUrl: "https://nzf.org.au" })[PREVIEW_CONFIG_ENV],
    );
    expect(parsed?.endpoint).toBeUndefined();
    expect(parsed?.public).toEqual({});
  });

  it("is null when the bundle was built without it or it is unreadable", () => {
    expect(parsePreviewConfig(undefined)).toBeNull();
    expect(parsePreviewConfig("{not json")).toBeNull();
    expect(parsePreviewConfig('{"endpoint":"x"}')).toBeNull();
  });
});
