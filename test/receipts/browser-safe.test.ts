import { build } from "esbuild";
import { describe, expect, it } from "vitest";

// The account pages may show receipts with the same words: everything but the mailer bundles for
// the browser without Node built-ins (React's server renderer has a browser build).
const BROWSER_MODULES = [
  "abn",
  "financial-year",
  "receipt",
  "receipt-html",
  "receipt-text",
  "message",
  "settings",
  "notice",
  "notice-html",
  "charge-notices",
  "contact-notices",
];

describe("src/receipts in the browser", () => {
  it("bundles with no Node built-ins", async () => {
    const result = await build({
      stdin: {
        contents: BROWSER_MODULES.map((m) => `export * from "./${m}.js";`).join("\n"),
        resolveDir: "src/receipts",
        sourcefile: "browser-surface.ts",
        loader: "ts",
      },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      metafile: true,
      jsx: "automatic",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain("src/receipts/receipt.ts");
    expect(inputs.filter((p) => p.startsWith("node:"))).toEqual([]);
    expect(inputs.filter((p) => p.includes("nodemailer") || p.includes("client-sesv2"))).toEqual([]);
  });
});
