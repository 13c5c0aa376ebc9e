/**
 * The content model: docs/content-model.md (the contract templates are written against), the
 * Slice Machine models in customtypes/ and slices/, and the generated TypeScript types must agree.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { PAGE_TYPES } from "../../src/content/page-types.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FIELD_TYPES = [
  "StructuredText",
  "Text",
  "Image",
  "Link",
  "Select",
  "Number",
  "Date",
  "Group",
  "Slices",
  "UID",
  "Boolean",
];

type Field = { type: string; config?: Record<string, any>; fieldset?: string };
type Model = {
  id: string;
  label: string;
  repeatable: boolean;
  status: boolean;
  format: string;
  json: Record<string, Record<string, Field>>;
};

async function loadModels(): Promise<Map<string, Model>> {
  const models = new Map<string, Model>();
  for (const dir of (await readdir(join(root, "customtypes"))).sort()) {
    models.set(dir, JSON.parse(await readFile(join(root, "customtypes", dir, "index.json"), "utf8")));
  }
  return models;
}

async function loadSlices(): Promise<Map<string, any>> {
  const slices = new Map<string, any>();
  for (const dir of (await readdir(join(root, "slices"))).sort()) {
    slices.set(dir, JSON.parse(await readFile(join(root, "slices", dir, "model.json"), "utf8")));
  }
  return slices;
}

/** Rows of the markdown table that follows `heading`, as arrays of cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(heading);
  expect(start, `docs/content-model.md has no "${heading}" section`).toBeGreaterThan(-1);
  const lines = markdown.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

// Identifiers only: the cells also quote paths such as `/pay`.
const ticks = (cell: string) =>
  [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).filter((t) => /^[A-Za-z][A-Za-z0-9_]*$/.test(t));

/** Every field id in a set of fields, including the fields of groups. */
function fieldIds(fields: Record<string, Field>): string[] {
  return Object.entries(fields).flatMap(([id, f]) => [
    id,
    ...(f.type === "Group" ? fieldIds(f.config?.fields ?? {}) : []),
  ]);
}

function checkField(where: string, field: Field): void {
  expect(FIELD_TYPES, `${where}: unknown field type ${field.type}`).toContain(field.type);
  // A slice zone is labelled by its fieldset; every other field by config.label.
  if (field.type === "Slices") expect(field.fieldset, `${where}: fieldset`).toBe("Slice Zone");
  else expect(typeof field.config?.label, `${where}: label`).toBe("string");
  if (field.type === "Group")
    for (const [id, f] of Object.entries(field.config!.fields)) checkField(`${where}.${id}`, f as Field);
  if (field.type === "Select") expect(field.config!.options.length, `${where}: options`).toBeGreaterThan(0);
  if (field.type === "StructuredText")
    expect(Boolean(field.config!.single) !== Boolean(field.config!.multi), `${where}: single xor multi`).toBe(true);
}

describe("custom type models", async () => {
  const markdown = await readFile(join(root, "docs", "content-model.md"), "utf8");
  const rows = tableAfter(markdown, "## Types and their fields");
  const models = await loadModels();
  const slices = await loadSlices();
  const sliceIds = [...slices.values()].map((s) => s.id);

  it("documents each content type of the page-type registry once and has exactly one model for each", () => {
    const documented = rows.flatMap((r) => ticks(r[0]!));
    expect([...documented].sort()).toEqual(Object.keys(PAGE_TYPES).sort());
    expect([...models.keys()].sort()).toEqual([...documented].sort());
  });

  for (const row of rows) {
    const [typeCell, kind, , fieldsCell] = row as [string, string, string, string];
    for (const type of ticks(typeCell)) {
      it(`${type}: shape, fields and SEO tab match docs/content-model.md`, () => {
        const model = models.get(type)!;
        expect(model.id).toBe(type);
        expect(typeof model.label).toBe("string");
        expect(model.status).toBe(true);
        const repeatable = kind.startsWith("repeatable");
        expect(model.repeatable).toBe(repeatable);
        expect(Object.keys(model.json)[0]).toBe("Main");
        for (const [tab, fields] of Object.entries(model.json))
          for (const [id, f] of Object.entries(fields)) checkField(`${type}.${tab}.${id}`, f);

        expect(model.json.Main!.uid?.type === "UID").toBe(repeatable);
        const isPage = type !== "global" && type !== "member";
        expect(model.format).toBe(isPage ? "page" : "custom");
        if (isPage) {
          expect(Object.keys(model.json.SEO ?? {})).toEqual(["meta_title", "meta_description", "meta_image"]);
          expect(model.json.SEO!.meta_image!.config!.constraint).toEqual({ width: 1200, height: 630 });
        } else {
          expect(model.json.SEO).toBeUndefined();
        }

        // Names in the doc that are not field ids are type names ("lists the `case` documents").
        const ids = fieldIds(model.json.Main!).filter((id) => id !== "uid");
        const named = ticks(fieldsCell).filter((t) => !models.has(t) || ids.includes(t));
        expect(new Set(ids)).toEqual(new Set(named));
        if (model.json.Main!.title) expect(model.json.Main!.title.config!.single).toBe("heading1");
      });
    }
  }

  it("every content relationship targets existing types and every slice zone offers all shared slices", () => {
    for (const model of models.values()) {
      const walk = (fields: Record<string, Field>) => {
        for (const field of Object.values(fields)) {
          if (field.type === "Group") walk(field.config!.fields);
          if (field.type === "Link" && field.config?.select === "document") {
            for (const target of field.config.customtypes)
              expect(models.has(target), `${model.id} → ${target}`).toBe(true);
          }
          if (field.type === "Slices") {
            expect(Object.keys(field.config!.choices).sort()).toEqual([...sliceIds].sort());
            for (const choice of Object.values(field.config!.choices)) expect(choice).toEqual({ type: "SharedSlice" });
          }
        }
      };
      walk(model.json.Main!);
    }
  });

  it("shared slices match the slice table, with snake_case ids and one default variation", () => {
    const sliceRows = tableAfter(markdown, "## Slices");
    expect([...slices.keys()].sort()).toEqual(sliceRows.map((r) => ticks(r[0]!)[0]!).sort());
    for (const [first, primaryCell, itemsCell] of sliceRows as [string, string, string][]) {
      const [folder, id] = ticks(first);
      const model = slices.get(folder!);
      expect(model.type).toBe("SharedSlice");
      expect(model.id).toBe(id);
      expect(model.name).toBe(folder);
      expect(model.variations.map((v: any) => v.id)).toEqual(["default"]);
      const variation = model.variations[0];
      expect(Object.keys(variation.primary).sort()).toEqual(ticks(primaryCell).sort());
      expect(Object.keys(variation.items ?? {}).sort()).toEqual(ticks(itemsCell).sort());
      for (const [fid, f] of Object.entries({ ...variation.primary, ...variation.items }))
        checkField(`${folder}.${fid}`, f as Field);
    }
  });
});

describe("generated TypeScript types", () => {
  let temp = "";
  afterAll(async () => {
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  it("src/content/prismic-types.generated.ts is exactly what prismic-ts-codegen writes from the models", async () => {
    temp = await mkdtemp(join(tmpdir(), "nzf-codegen-"));
    const output = join(temp, "types.generated.ts");
    // The committed config, with only the output redirected, so the test runs the real setup.
    const config = join(temp, "prismicCodegen.config.ts");
    await writeFile(
      config,
      `import base from ${JSON.stringify(join(root, "prismicCodegen.config.ts"))};\nexport default { ...base, output: ${JSON.stringify(output)} };\n`,
    );
    await promisify(execFile)(
      process.execPath,
      [join(root, "node_modules", "prismic-ts-codegen", "dist", "cli.mjs"), "--config", config],
      { cwd: root },
    );
    const generated = await readFile(output, "utf8");
    const committed = await readFile(join(root, "src", "content", "prismic-types.generated.ts"), "utf8");
    expect(generated).toContain("export type ZakatDocument");
    expect(
      generated === committed,
      "The generated types are out of date: run `npm run codegen` and commit the result.",
    ).toBe(true);
  }, 60_000);
});
