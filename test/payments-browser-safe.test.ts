import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// The donation island bundles src/payments for the browser: it must not pull in Node built-ins, and
// it must not carry anything that looks like a Stripe secret.
describe("src/payments in the browser", () => {
  it("bundles for the browser with no Node built-ins", async () => {
    const result = await build({
      entryPoints: ["src/payments/index.ts"],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain("src/payments/client.ts");
    expect(inputs.filter((p) => p.startsWith("node:") || !p.startsWith("src/"))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).toContain("createPaymentsClient");
    expect(code).not.toMatch(/\bsk_(live|test)_/);
  });
});
