import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// The donation island bundles src/payments for the browser: it must not pull in Node built-ins, and
// it must not carry anything that looks like a Stripe secret.
const BROWSER_MODULES = [
  "types",
  "money",
  "fees",
  "schedules",
  "fund-rules",
  "validate",
  "pricing",
  "errors",
  "idempotency",
  "client",
  "canonical-json",
];

describe("src/payments in the browser", () => {
  it("bundles for the browser with no Node built-ins", async () => {
    const result = await build({
      // Every module of src/payments the browser may load (config.ts reads the build's environment).
      stdin: {
        contents: BROWSER_MODULES.map((m) => `export * from "./${m}.js";`).join("\n"),
        resolveDir: "src/payments",
        sourcefile: "browser-surface.ts",
        loader: "ts",
      },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain("src/payments/client.ts");
    expect(
      inputs.filter((p) => p.startsWith("node:") || !(p.startsWith("src/") || p === "browser-surface.ts")),
    ).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).toContain("createPaymentsClient");
    expect(code).not.toMatch(/\bsk_(live|test)_/);
  });
});
