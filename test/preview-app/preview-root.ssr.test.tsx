import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import PreviewRoot from "../../src/preview-app/preview-root.js";

// vitest.config.ts sets NODE_ENV=production, but the test transform emits development JSX (jsxDEV).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

describe("PreviewRoot on the server", () => {
  it("renders nothing and touches no browser global (no document in this environment)", () => {
    expect(typeof document).toBe("undefined");
    expect(renderToString(<PreviewRoot repositoryName="nzf2020" />)).toBe("");
  });
});
