/**
 * The account island as the browser gets it (esbuild, ESM, code splitting, like the islands
 * stage): Amplify sits in a lazily loaded chunk of its own, the entry does not pull it in, nothing
 * needs Node, and no output carries a token or secret.
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { findAuthSecrets } from "../../src/auth/dist-scan.js";

describe("account island bundle", () => {
  it("loads aws-amplify lazily and ships no secrets", async () => {
    const result = await build({
      entryPoints: ["src/client/islands/account.tsx"],
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      outdir: "/virtual",
      write: false,
      minify: true,
      jsx: "automatic",
      metafile: true,
      logLevel: "silent",
      define: { "process.env.NODE_ENV": '"production"' },
    });
    const outputs = Object.entries(result.metafile.outputs);
    const usesAmplify = (inputs: Record<string, unknown>) => Object.keys(inputs).some((i) => i.includes("aws-amplify"));
    const entry = outputs.find(([, o]) => o.entryPoint === "src/client/islands/account.tsx")!;
    expect(usesAmplify(entry[1].inputs)).toBe(false);
    // The entry reaches Amplify only through a dynamic import.
    const amplifyChunks = outputs.filter(([, o]) => usesAmplify(o.inputs));
    expect(amplifyChunks).toHaveLength(1);
    expect(entry[1].imports.some((i) => i.path === amplifyChunks[0]![0] && i.kind === "dynamic-import")).toBe(true);
    for (const file of result.outputFiles) {
      expect(file.text).not.toMatch(/from"node:|require\("node:/);
      expect(findAuthSecrets(file.text), file.path).toEqual([]);
    }
  });
});
