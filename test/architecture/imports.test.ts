import { describe, expect, it } from "vitest";
import { folderCycles, folderEdges, importsOf } from "./folder-imports.js";

/**
 * Folders import one way: no folder of src/ (nor templates/) imports
 * a folder that imports it back, directly or through others. Each README.md in src/ says what its
 * folder may import. A cycle that must stay a while goes in KNOWN_CYCLES with its reason.
 */
const KNOWN_CYCLES: string[][] = [];

describe("folder imports", () => {
  it("reads import, export-from and dynamic import specifiers", () => {
    const text = [
      'import { a } from "../core/a.js";',
      'import type { B } from "../render/b.js";',
      'export { c } from "./c.js";',
      'export * from "../pwa/d.js";',
      'import "./side-effect.js";',
      'const e = await import("../images/e.js");',
      'import {\n  f,\n  g,\n} from "../zakat/f.js";',
      'const text = "imports from somewhere";',
    ].join("\n");
    expect(importsOf(text)).toEqual([
      "../core/a.js",
      "../render/b.js",
      "./c.js",
      "../pwa/d.js",
      "./side-effect.js",
      "../images/e.js",
      "../zakat/f.js",
    ]);
  });

  it("finds a cycle through three folders", () => {
    const edges = [
      { from: "a", to: "b", example: "" },
      { from: "b", to: "c", example: "" },
      { from: "c", to: "a", example: "" },
      { from: "c", to: "d", example: "" },
    ];
    expect(folderCycles(edges)).toEqual([["a", "b", "c"]]);
  });

  it("has no folder cycles beyond the known ones", () => {
    const edges = folderEdges();
    const cycles = folderCycles(edges);
    const inCycles = cycles.map((group) => ({
      folders: group.join(" ⇄ "),
      edges: edges
        .filter((e) => group.includes(e.from) && group.includes(e.to))
        .map((e) => `${e.from} → ${e.to}: ${e.example}`),
    }));
    expect(
      inCycles.map((c) => c.folders),
      JSON.stringify(inCycles, null, 2),
    ).toEqual(KNOWN_CYCLES.map((g) => g.join(" ⇄ ")));
  });
});
