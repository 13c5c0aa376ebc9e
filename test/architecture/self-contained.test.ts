import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The project stands on its own: a comment or a document gives the rule and its reason, never a
 * pointer to a text outside the repository (a numbered section of a document kept elsewhere, a
 * design guide, a folder beside the clone) that a reader of the project cannot open, and no name
 * leans on such a text for its authority. Public standards cited by number (an RFC and its section)
 * are fine: anyone can read them.
 */
const ROOT = join(import.meta.dirname, "..", "..");
const FOLDERS = ["src", "docs", "templates", "scripts", "bin", "bench", "test", ".ci", "customtypes", "slices"];
const TOP_FILES = ["README.md", "package.json", "tsconfig.json", "biome.json", "vitest.config.ts"];
const TEXT = new Set([
  "",
  ".ts",
  ".tsx",
  ".mts",
  ".js",
  ".mjs",
  ".cjs",
  ".json",
  ".md",
  ".css",
  ".html",
  ".graphql",
  ".sh",
  ".yml",
  ".yaml",
]);

// Spelled in pieces so that this file does not match itself.
const SPEC = "spec" + "ification";
const SECTION = "\u00a7";
const OUTSIDE: { rule: string; pattern: RegExp }[] = [
  { rule: `cites "the ${SPEC}"`, pattern: new RegExp(`\\bthe ${SPEC}\\b`, "i") },
  {
    rule: `cites a ${SPEC} section`,
    pattern: new RegExp(`\\bspec(${SPEC.slice(4)})?('s|\\s+section|\\s*${SECTION})`, "i"),
  },
  {
    rule: "cites a numbered section (only an RFC's may be cited)",
    pattern: new RegExp(`(?<!RFC \\d+ )(${SECTION}\\s*\\d|\\bsection \\d)`, "i"),
  },
  {
    rule: `names an identifier after the ${SPEC} (name what it holds)`,
    pattern: new RegExp(`\\b${"SP"}EC_[A-Z]|[A-Z]_${"SP"}EC\\b`),
  },
  { rule: "names a folder beside the clone", pattern: new RegExp(`(\\.\\./|/work/)${"sha"}red\\b`) },
  { rule: "cites a design guide outside the project", pattern: new RegExp(`\\b${"DES"}IGN\\.md\\b`) },
];

/** The rule each line of `text` breaks, as "line: rule". */
function outsideCitations(text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const { rule, pattern } of OUTSIDE) if (pattern.test(line)) found.push(`${i + 1}: ${rule}`);
  });
  return found;
}

function projectFiles(): string[] {
  const files = TOP_FILES.map((f) => join(ROOT, f));
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name === "node_modules") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (TEXT.has(extname(name))) files.push(path);
    }
  };
  for (const folder of FOLDERS) walk(join(ROOT, folder));
  return files;
}

describe("the project stands on its own", () => {
  it("tells a citation of an outside text from a rule with its reason", () => {
    expect(outsideCitations(`// Pool id at most 55 characters (${SPEC} ${"sec"}tion 9).`).length).toBeGreaterThan(0);
    expect(outsideCitations(`/** As the ${SPEC}'s ${SECTION}7 says. */`).length).toBeGreaterThan(0);
    expect(outsideCitations(`| \`machine.ts\` | the preview machine (spec ${SECTION}3–4) |`).length).toBeGreaterThan(0);
    expect(outsideCitations(`waits 10 s at most (${SECTION}9).`)).toHaveLength(1);
    expect(outsideCitations(`// ${"Sec"}tion 9: RevokeToken retried from 100 ms.`)).toHaveLength(1);
    expect(outsideCitations(`describe("the time limits (${"sec"}tion 9)", () => {`)).toHaveLength(1);
    expect(outsideCitations(`if (!v) return ${"SP"}EC_MESSAGES.emptyUsername;`)).toHaveLength(1);
    expect(outsideCitations("// The part before @ is case-sensitive (RFC 5321 section 2.4).")).toEqual([]);
    expect(outsideCitations("if (!v) return EARLIER_SITE_MESSAGES.emptyUsername; const specs = OPTIONS;")).toEqual([]);
    expect(outsideCitations(`Runs from a fresh clone with ../${"sha"}red beside it.`)).toHaveLength(1);
    expect(outsideCitations(`see ${"DES"}IGN.md`)).toHaveLength(1);
    expect(outsideCitations(`RFC 5321 ${SECTION}2.4 says the local part is case-sensitive.`)).toEqual([]);
    expect(outsideCitations("/** Cognito's longest user pool id: anything longer is a typo. */")).toEqual([]);
    expect(outsideCitations("const spec = pageTypeOf(type); for (const spec of items) {}")).toEqual([]);
  });

  it("no project file cites a text outside the project", () => {
    const files = projectFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      outsideCitations(readFileSync(file, "utf8")).map((hit) => `${relative(ROOT, file)}:${hit}`),
    );
    expect(found).toEqual([]);
  });
});
