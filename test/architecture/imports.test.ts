import { describe, expect, it } from "vitest";
import { folderCycles, folderEdges, importsOf } from "./folder-imports.js";
import { mayImportLists, parseMayImport } from "./readme-imports.js";

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

  it("reads a README's May import list: folders and paths of its first sentence", () => {
    const isFolder = (name: string) => ["core", "payments", "zakat", "build", "cli", "server"].includes(name);
    const readme = [
      "# src/x",
      "",
      "May import: `core` (`coded-error.ts` only), `payments/types.ts` and `zakat`, for `/status`. Only",
      "the commands import it (`cli`, `server`).",
    ].join("\n");
    expect(parseMayImport("x", readme, isFolder)).toEqual({
      folder: "x",
      allowed: new Set(["core", "payments", "zakat"]),
      unknown: [],
    });
    expect(parseMayImport("x", "May import: `core`, `pwa`.", isFolder)?.unknown).toEqual(["pwa"]);
    expect(parseMayImport("x", "May import: any folder (it is the top); nothing imports it.", isFolder)?.allowed).toBe(
      null,
    );
    expect(parseMayImport("x", "May import: nothing outside `core` (it is the bottom).", isFolder)?.allowed).toEqual(
      new Set(["core"]),
    );
  });

  it("imports only what each folder's README says it may import", () => {
    const lists = mayImportLists();
    expect(lists.map((l) => l.folder)).toContain("render");
    const byFolder = new Map(lists.map((l) => [l.folder, l]));
    const unknown = lists.flatMap((l) => l.unknown.map((name) => `src/${l.folder}/README.md names \`${name}\``));
    expect(unknown, "a May import list names a folder that does not exist").toEqual([]);
    const strays = folderEdges()
      .filter((e) => {
        const allowed = byFolder.get(e.from)?.allowed;
        return allowed !== undefined && allowed !== null && !allowed.has(e.to);
      })
      .map((e) => `${e.from} → ${e.to}: ${e.example}`);
    expect(strays, "add the folder to the README's May import list (with why), or drop the import").toEqual([]);
  });

  it("has a May import list in every folder's README", () => {
    const listed = new Set(mayImportLists().map((l) => l.folder));
    const folders = [...new Set(folderEdges().map((e) => e.from))].filter((f) => f !== "templates" && !f.includes("."));
    expect(folders.filter((f) => !listed.has(f))).toEqual([]);
  });
});
