import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./browser-code.js";

/**
 * Production code has no options that exist for tests. A comment in src/ that documents an option,
 * a parameter or a hook as being there for tests ("tests shorten them", "(tests)", "injected for
 * tests", "test only") fails here: the tests reach that behaviour through test/support instead
 * (vi.mock of a module, fake timers, an SDK's own endpoint variable, a real local server), or
 * through a setting production also has and documents, whose comment then gives the production
 * reason. src/stand-ins/ is exempt: those local servers exist for tests and watch mode.
 *
 * REMAINING names the seams known and not yet moved, each with what would move it. An entry that no
 * longer matches fails too, so the list only shrinks.
 */
const FOR_TESTS: RegExp[] = [
  /\bfor (the )?tests\b/i,
  /\((the )?tests?\)/i,
  /\((the )?tests?[:,;]/i,
  /\((the )?tests and\b/i,
  /\btests? (shorten|shrink|pass|inject|move|dump|set|give|supply|load|stand in)s?\b/i,
  /\bso (that )?tests\b/i,
  /\btests' (fault|clock|hook)/i,
  /\btest[- ]only\b/i,
];

/** Known seams still in production code: file, a piece of the matching line, and what would move it. */
const REMAINING: { file: string; line: string; move: string }[] = [];

/**
 * Options removed because only tests set them, and how the tests reach that behaviour now: an option
 * of that name coming back to the interface fails here.
 */
const REMOVED: { file: string; type: string; option: string; now: string }[] = [
  {
    file: "src/watch/watch.ts",
    type: "WatchOptions",
    option: "events",
    now: "test/support/watch-session.ts reads the session's --verbose lines through the logger it gives",
  },
  {
    file: "src/api/node-server.ts",
    type: "ApiServerOptions",
    option: "database",
    now: "its dataDir, named by testDataDir; test/support/api-db-open.ts replaces src/api/db/open.ts",
  },
  {
    file: "src/preview-app/run-preview.ts",
    type: "RunPreviewOptions",
    option: "sleep",
    now: "vi.mock of src/core/retry.ts's realSleep, which records a 429's wait (test/preview-app/run-preview.test.ts)",
  },
  {
    file: "src/preview/content-api.ts",
    type: "PreviewClientOptions",
    option: "sleep",
    now: "vi.mock of src/core/retry.ts's realSleep, which records a 429's wait (test/preview/errors.test.ts)",
  },
  {
    file: "src/server/static-server.ts",
    type: "StaticServerOptions",
    option: "headers",
    now: "the site with its _headers is served as `nzf-build preview` serves it (startPreviewServer)",
  },
];

/** The members of `interface type` (or `type type = {`) in `text`, or null when it is not there. */
function membersOf(text: string, type: string): string[] | null {
  const start = new RegExp(`^export (interface ${type}\\b[^{]*|type ${type} = )\\{`, "m").exec(text);
  if (!start) return null;
  const body = text.slice(start.index + start[0].length);
  const end = /^\}/m.exec(body);
  const members = body.slice(0, end ? end.index : body.length);
  return [...members.matchAll(/^ {2}(?:readonly )?(\w+)\??[:(]/gm)].map((m) => m[1] as string);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "stand-ins" ? [] : sourceFiles(path);
    return [".ts", ".tsx", ".mts"].includes(extname(entry.name)) ? [path] : [];
  });
}

/** Every line of `text` that documents something as being there for tests. */
function testSeams(text: string): string[] {
  return text.split("\n").filter((line) => FOR_TESTS.some((pattern) => pattern.test(line)));
}

describe("production code has no seams for tests", () => {
  it("tells an option kept for tests from a production reason", () => {
    expect(testSeams("  /** Timeouts that cut off slow clients (tests shorten them). */")).toHaveLength(1);
    expect(testSeams("  /** Extra props for tests (fetch, navigate, ...). */")).toHaveLength(1);
    expect(testSeams("  /** The RevokeToken retry's clock and dice (tests); the same figures. */")).toHaveLength(1);
    expect(testSeams("  /** Tests pass a client of their own; the CLI makes one. */")).toHaveLength(1);
    expect(testSeams("/** The module loader is injectable so tests can stand in for a chunk. */")).toHaveLength(1);
    expect(testSeams("  /** cognito-local's URL (tests, --watch); unset for a real pool. */")).toHaveLength(1);
    expect(testSeams("// a test-only hook")).toHaveLength(1);
    expect(testSeams("  /** An S3-compatible endpoint (--s3-endpoint: MinIO); path-style addressing. */")).toEqual([]);
    expect(testSeams(" * the ids stay readable (`i0-field-email`, which tests can name)")).toEqual([]);
    expect(testSeams('if (body.type === "test-trigger") return;')).toEqual([]);
  });

  it("no production file documents an option as existing for tests, beyond the known ones", () => {
    const files = sourceFiles(join(ROOT, "src"));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((path) => {
      const file = relative(ROOT, path);
      return testSeams(readFileSync(path, "utf8")).map((line) => ({ file, line: line.trim() }));
    });
    const known = (hit: { file: string; line: string }) =>
      REMAINING.some((entry) => entry.file === hit.file && hit.line.includes(entry.line));
    expect(found.filter((hit) => !known(hit)).map((hit) => `${hit.file}: ${hit.line}`)).toEqual([]);
    const stale = REMAINING.filter(
      (entry) => !found.some((hit) => hit.file === entry.file && hit.line.includes(entry.line)),
    );
    expect(
      stale.map((entry) => `${entry.file}: "${entry.line}" is gone; take it off REMAINING`),
      "the list only shrinks",
    ).toEqual([]);
  });

  it("options removed for being set by tests only stay removed", () => {
    const back = REMOVED.flatMap(({ file, type, option, now }) => {
      const members = membersOf(readFileSync(join(ROOT, file), "utf8"), type);
      if (!members) return [`${file} has no ${type} any more: update REMOVED`];
      expect(members.length, `${type}'s members are read`).toBeGreaterThan(0);
      return members.includes(option) ? [`${type}.${option} is back in ${file}; the tests use: ${now}`] : [];
    });
    expect(back).toEqual([]);
  });

  it("reads an interface's members", () => {
    const text =
      "export interface A extends B {\n  port?: number;\n  stop(): void;\n  /** x: y */\n  readonly host: string;\n}\nexport interface C {\n  events?: E;\n}\n";
    expect(membersOf(text, "A")).toEqual(["port", "stop", "host"]);
    expect(membersOf(text, "C")).toEqual(["events"]);
    expect(membersOf(text, "D")).toBeNull();
  });
});
