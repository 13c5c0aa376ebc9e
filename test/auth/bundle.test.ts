/**
 * The account island as the browser gets it (esbuild, ESM, code splitting, like the islands
 * stage): Amplify sits in a lazily loaded chunk of its own, the entry does not pull it in, nothing
 * needs Node, and no output carries a token or secret. The security section's QR encoder and
 * user-agent parser load the same way, only when used.
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
    // qrcode (the authenticator's QR code) and ua-parser-js (device names): reached only through a
    // dynamic import, never from the entry or any chunk it imports statically.
    const staticReach = new Set<string>();
    const walk = (path: string) => {
      if (staticReach.has(path)) return;
      staticReach.add(path);
      for (const i of result.metafile.outputs[path]!.imports) if (i.kind === "import-statement") walk(i.path);
    };
    walk(entry[0]);
    for (const lib of ["node_modules/qrcode/", "node_modules/ua-parser-js/"]) {
      const holders = outputs.filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes(lib)));
      expect(holders.length, lib).toBeGreaterThan(0);
      for (const [path] of holders) expect(staticReach.has(path), `${lib} in ${path}`).toBe(false);
    }
    for (const file of result.outputFiles) {
      expect(file.text).not.toMatch(/from"node:|require\("node:/);
      expect(findAuthSecrets(file.text), file.path).toEqual([]);
    }
  });
});
