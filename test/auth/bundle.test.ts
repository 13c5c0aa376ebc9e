/**
 * The account island as the browser gets it (esbuild, ESM, code splitting, like the islands
 * stage): Amplify sits in a lazily loaded chunk of its own, the entry does not pull it in, nothing
 * needs Node, and no output carries a token or secret. The security section's QR encoder and
 * user-agent parser load the same way, only when used, and so does a regular gift's card form.
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
    const outputs = result.metafile.outputs;
    const usesAmplify = (inputs: Record<string, unknown>) => Object.keys(inputs).some((i) => i.includes("aws-amplify"));
    /** A chunk and every chunk it imports statically: what loads together with it. */
    const closure = (path: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(path)) return seen;
      seen.add(path);
      for (const i of outputs[path]!.imports) if (i.kind === "import-statement") closure(i.path, seen);
      return seen;
    };
    const inputsOf = (paths: Set<string>) => [...paths].flatMap((p) => Object.keys(outputs[p]!.inputs));
    const [entryPath] = Object.entries(outputs).find(([, o]) => o.entryPoint === "src/client/islands/account.tsx")!;
    expect(usesAmplify(Object.fromEntries(inputsOf(closure(entryPath)).map((i) => [i, 1])))).toBe(false);
    // The entry reaches Amplify only through a dynamic import: the adapter's chunk.
    const adapterPath = Object.keys(outputs).find((p) => "src/auth/amplify.ts" in outputs[p]!.inputs)!;
    expect(
      outputs[entryPath]!.imports.some((i) => i.path === adapterPath && i.kind === "dynamic-import"),
      "the island imports the adapter with import()",
    ).toBe(true);
    // The hosted sign-in's own code loads only on demand, through the adapter's import(). (Amplify
    // marks signInWithRedirect as a module with side effects, so its OAuth listener already rides
    // in the adapter's chunk: lazily loaded, never in a page's first scripts.)
    const hostedPath = Object.keys(outputs).find((p) => "src/auth/hosted-sign-in.ts" in outputs[p]!.inputs)!;
    expect(hostedPath).not.toBe(adapterPath);
    expect(outputs[adapterPath]!.imports).toContainEqual(
      expect.objectContaining({ path: hostedPath, kind: "dynamic-import" }),
    );
    expect(closure(entryPath).has(hostedPath)).toBe(false);
    // qrcode (the authenticator's QR code) and ua-parser-js (device names): reached only through a
    // dynamic import, never from the entry or any chunk it imports statically.
    const staticReach = closure(entryPath);
    // The card form of a regular gift's new card, and Stripe.js's loader: only when a donor changes a card.
    for (const lib of [
      "node_modules/qrcode/",
      "node_modules/ua-parser-js/",
      "node_modules/@stripe/stripe-js/",
      "src/client/account/card-form.tsx",
    ]) {
      const holders = Object.entries(outputs).filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes(lib)));
      expect(holders.length, lib).toBeGreaterThan(0);
      for (const [path] of holders) expect(staticReach.has(path), `${lib} in ${path}`).toBe(false);
    }
    for (const file of result.outputFiles) {
      expect(file.text).not.toMatch(/from"node:|require\("node:/);
      expect(findAuthSecrets(file.text), file.path).toEqual([]);
    }
  });
});
