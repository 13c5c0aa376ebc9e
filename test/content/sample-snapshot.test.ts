/**
 * The bundled sample snapshot: complete (every type, the promised counts), consistent (links,
 * images, uids, alternate languages), faithful to the models in customtypes/ and slices/, and
 * exactly what scripts/sample/generate.ts produces.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { buildSampleSnapshot } from "../../scripts/sample/generate.js";
import { REPEATABLE_TYPE_ROUTES, SINGLE_TYPE_ROUTES, STATIC_PAGES } from "../../src/content/routes.js";
import { readSnapshot } from "../../src/content/snapshot.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const sampleDir = join(root, "content-cache", "sample");
const imageDir = join(sampleDir, "images");
const IMAGE_PREFIX = "https://images.prismic.io/nzf-sample/";

/** Top-level paths a landing page (/:uid) must never take. */
const RESERVED = [
  "about",
  "account",
  "apply",
  "blog",
  "calculate",
  "case",
  "cases",
  "contact",
  "faq",
  "guides",
  "learn",
  "partner",
  "pay",
  "preview",
  "privacy",
  "program",
  "programs",
  "styleguide",
  "ramadan-calendars",
  "right-to-zakat-draft",
];

type Doc = {
  id: string;
  uid: string | null;
  type: string;
  lang: string;
  alternate_languages: any[];
  data: Record<string, any>;
  [k: string]: any;
};
type Field = { type: string; config?: any };

/** Calls `visit` for every object nested anywhere in `value`, with a readable path. */
function walk(value: unknown, path: string, visit: (obj: Record<string, any>, path: string) => void): void {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`, visit);
  else if (value && typeof value === "object") {
    visit(value as Record<string, any>, path);
    for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, visit);
  }
}

const snapshot = await readSnapshot(join(sampleDir, "snapshot.json"));
const docs = snapshot.documents as unknown as Doc[];
const byId = new Map(docs.map((d) => [d.id, d]));
const models = new Map<string, { repeatable: boolean; json: Record<string, Record<string, Field>> }>();
for (const dir of await readdir(join(root, "customtypes")))
  models.set(dir, JSON.parse(await readFile(join(root, "customtypes", dir, "index.json"), "utf8")));
const sliceModels = new Map<string, any>();
for (const dir of await readdir(join(root, "slices"))) {
  const model = JSON.parse(await readFile(join(root, "slices", dir, "model.json"), "utf8"));
  sliceModels.set(model.id, model.variations[0]);
}
const ofType = (type: string, lang = "en-au") => docs.filter((d) => d.type === type && d.lang === lang);

describe("sample snapshot: completeness", () => {
  it("is a format 1 snapshot of nzf-sample in en-au and ar-ae", () => {
    expect(snapshot.format).toBe(1);
    expect(snapshot.repository).toBe("nzf-sample");
    expect(snapshot.languages).toEqual(["en-au", "ar-ae"]);
    expect(snapshot.ref).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it("has a document of every content type, and each single type exactly once in en-au", () => {
    expect(new Set(docs.map((d) => d.type))).toEqual(new Set(models.keys()));
    for (const [type, model] of models) if (!model.repeatable) expect(ofType(type), type).toHaveLength(1);
  });

  it("has the promised amount of content", () => {
    expect(ofType("case").length).toBeGreaterThanOrEqual(6);
    expect(ofType("program").length).toBeGreaterThanOrEqual(4);
    expect(ofType("partner").length).toBeGreaterThanOrEqual(4);
    expect(ofType("blog_article").length).toBeGreaterThanOrEqual(8);
    expect(ofType("faq_page")[0]!.data.faqs.length).toBeGreaterThanOrEqual(12);
    expect(ofType("member").length).toBeGreaterThanOrEqual(8);
    expect(new Set(ofType("member").map((m) => m.data.team))).toEqual(new Set(["board", "staff", "shariah_panel"]));
    expect(
      ofType("landing_page")
        .map((d) => d.uid)
        .sort(),
    ).toEqual(["ramadan-appeal", "zakat-explained"]);
  });

  it("uses every shared slice somewhere", () => {
    const used = new Set(docs.flatMap((d) => (d.data.slices ?? []).map((s: any) => s.slice_type)));
    expect(used).toEqual(new Set(sliceModels.keys()));
  });

  it("uses the foundation's real domain, and its account page promises only what the account does", () => {
    expect(JSON.stringify(snapshot)).not.toMatch(/nzf\.example/);
    expect(ofType("global")[0]!.data.contact_email).toMatch(/@nzf\.org\.au$/);
    // The account shows the gifts made while signed in, a printable receipt each and a yearly summary,
    // regular gifts to pause, change or cancel, and the sign-in's password, e-mail, phone and devices.
    // Receipts print (or save as PDF from the print dialog): nothing offers a download.
    const account = JSON.stringify(ofType("account_page")[0]!.data);
    for (const promise of [/receipt/i, /tax summary/i, /regular gift/i, /password/i, /devices/i])
      expect(account).toMatch(promise);
    expect(account).not.toMatch(/download/i);
  });

  it("has the Arabic chrome: a global document in Arabic whose donate button leads to the Arabic zakat page", () => {
    const [ar] = ofType("global", "ar-ae");
    expect(ar!.data.site_name).toBe("المؤسسة الوطنية للزكاة");
    expect(ar!.data.donate_link).toMatchObject({ type: "zakat", lang: "ar-ae" });
    for (const item of ar!.data.navigation) expect(item.label).toMatch(/[\u0600-\u06FF]/);
  });

  it("has the home page, the calculator and every pay page in Arabic, each linked to its English version both ways", () => {
    const payTypes = [
      "dhul_hijjah",
      "fidyah",
      "fitr",
      "jumuah_giving",
      "pay_page",
      "qurban",
      "ramadan",
      "sadaqah",
      "tainted_wealth",
      "zakat",
    ];
    expect(
      docs
        .filter((d) => d.lang === "ar-ae")
        .map((d) => d.type)
        .sort(),
    ).toEqual(["calculate_page", "global", "home_page", ...payTypes].sort());
    for (const type of ["home_page", "calculate_page", ...payTypes]) {
      const [en] = ofType(type, "en-au");
      const [ar] = ofType(type, "ar-ae");
      expect(en!.alternate_languages).toEqual([{ id: ar!.id, type, lang: "ar-ae" }]);
      expect(ar!.alternate_languages).toEqual([{ id: en!.id, type, lang: "en-au" }]);
      expect(ar!.data.title[0].text).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it("sets the calculator's prices and the donation limits", () => {
    const calc = ofType("calculate_page")[0]!.data;
    expect(calc).toMatchObject({
      nisab_basis: "silver",
      silver_price_per_gram: 1.55,
      gold_price_per_gram: 165,
      prices_as_at: "2026-11-01",
      long_term_share_proxy: 30,
    });
    expect(calc.help_super.map((b: any) => b.text).join(" ")).toMatch(/Compulsory superannuation is not zakatable/);
    expect(ofType("zakat")[0]!.data.presets.map((p: any) => p.amount)).toEqual([100, 250, 500, 1000]);
    expect(ofType("fitr")[0]!.data.presets[0].amount).toBe(15);
    expect(ofType("fidyah")[0]!.data.presets[0].amount).toBe(15);
    for (const type of [
      "zakat",
      "fitr",
      "fidyah",
      "sadaqah",
      "qurban",
      "ramadan",
      "dhul_hijjah",
      "tainted_wealth",
      "jumuah_giving",
    ]) {
      for (const doc of docs.filter((d) => d.type === type)) {
        const { minimum_amount: min, maximum_amount: max, default_amount: def, presets } = doc.data;
        expect([5, 10], type).toContain(min);
        expect(max, type).toBe(100000);
        expect(def, type).toBeGreaterThanOrEqual(min);
        for (const p of presets) expect(p.amount, type).toBeGreaterThanOrEqual(min);
      }
    }
  });
});

describe("sample snapshot: consistency", () => {
  it("has unique ids and, per type and language, unique uids; repeatable types always have one", () => {
    expect(byId.size).toBe(docs.length);
    const seen = new Set<string>();
    for (const doc of docs) {
      const repeatable = models.get(doc.type)!.repeatable;
      if (repeatable) expect(doc.uid, doc.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      else expect(doc.uid, doc.id).toBeNull();
      const key = `${doc.type}/${doc.uid}/${doc.lang}`;
      expect(seen.has(key), `duplicate ${key}`).toBe(false);
      seen.add(key);
    }
  });

  it("gives no landing page a uid that collides with a top-level route", () => {
    const routeSegments = [
      ...Object.values(SINGLE_TYPE_ROUTES),
      ...Object.values(REPEATABLE_TYPE_ROUTES),
      ...Object.values(STATIC_PAGES).map((p) => p.path),
    ]
      .map((p) => p.split("/")[1]!.replace(/\.html$/, ""))
      .filter((s) => s && !s.startsWith(":"));
    for (const landing of docs.filter((d) => d.type === "landing_page")) {
      expect(RESERVED).not.toContain(landing.uid);
      expect(routeSegments).not.toContain(landing.uid);
    }
  });

  it("points every document link at an existing document with the same type, uid and language", () => {
    let links = 0;
    for (const doc of docs) {
      walk(doc.data, `${doc.type}:${doc.uid ?? doc.lang}`, (obj, path) => {
        expect(["Document", "Web", "Media", "Any", undefined], path).toContain(obj.link_type);
        if (obj.link_type === "Web") expect(obj.url, path).toMatch(/^(https:\/\/|mailto:|tel:)/);
        if (obj.link_type !== "Document") return;
        links++;
        const target = byId.get(obj.id);
        expect(target, `${path} → missing ${obj.id}`).toBeDefined();
        expect({ type: obj.type, uid: obj.uid ?? null, lang: obj.lang, isBroken: obj.isBroken }, path).toEqual({
          type: target!.type,
          uid: target!.uid,
          lang: target!.lang,
          isBroken: false,
        });
        expect(obj.slug, path).toBe(target!.slugs[0]);
      });
    }
    expect(links).toBeGreaterThan(50);
  });

  it("maps every image to a file in content-cache/sample/images with the stated dimensions", async () => {
    const images = new Map<string, { width: number; height: number }>();
    for (const doc of docs) {
      walk(doc.data, `${doc.type}:${doc.uid ?? doc.lang}`, (obj, path) => {
        if (!("dimensions" in obj)) return;
        expect(obj.url, path).toMatch(
          new RegExp(`^${IMAGE_PREFIX.replace(/\./g, "\\.")}[a-z0-9-]+\\.(jpg|png)\\?auto=format,compress$`),
        );
        expect(
          obj.alt === null || (typeof obj.alt === "string" && obj.alt.trim().length > 3),
          `${path}: alt is text or null`,
        ).toBe(true);
        expect(obj.edit).toEqual({ x: 0, y: 0, zoom: 1, background: "transparent" });
        const file = obj.url.slice(IMAGE_PREFIX.length).split("?")[0];
        images.set(`${file}|${path}`, obj.dimensions);
      });
    }
    expect(images.size).toBeGreaterThan(40);
    const metadata = new Map<string, { width?: number; height?: number }>();
    for (const [key, dims] of images) {
      const file = key.split("|")[0]!;
      expect(existsSync(join(imageDir, file)), `${file} exists`).toBe(true);
      if (!metadata.has(file)) metadata.set(file, await sharp(join(imageDir, file)).metadata());
      const { width, height } = metadata.get(file)!;
      expect({ width, height }, key).toEqual(dims);
    }
  });

  it("describes each picture in its document's language, and an Arabic page's pictures as its English page's", () => {
    const ARABIC = /[\u0600-\u06FF]/;
    const LATIN = /[A-Za-z]/;
    const altsOf = (doc: Doc) => {
      const alts: Record<string, string | null> = {};
      walk(doc.data, "", (obj, path) => {
        if ("dimensions" in obj) alts[path] = obj.alt ?? null;
      });
      return alts;
    };
    let arabic = 0;
    for (const doc of docs) {
      for (const [path, alt] of Object.entries(altsOf(doc))) {
        if (alt === null) continue;
        const where = `${doc.type}:${doc.uid ?? ""}@${doc.lang}${path}`;
        if (doc.lang === "ar-ae") {
          arabic++;
          expect(alt, where).toMatch(ARABIC);
          expect(alt, where).not.toMatch(LATIN);
        } else expect(alt, where).not.toMatch(ARABIC);
      }
      // A picture the English page describes is described on its Arabic page too (not left as decoration).
      if (doc.lang !== "ar-ae") continue;
      const english = docs.find((d) => d.alternate_languages.some((a) => a.id === doc.id) && d.lang === "en-au");
      if (!english) continue;
      const mine = altsOf(doc);
      for (const [path, alt] of Object.entries(altsOf(english)))
        if (alt !== null && path in mine) expect(mine[path], `${doc.type}@ar-ae${path}`).not.toBeNull();
    }
    expect(arabic).toBeGreaterThanOrEqual(8);
  });

  it("keeps the images small enough to commit", async () => {
    const files = await readdir(imageDir);
    let total = 0;
    for (const file of files) total += (await readFile(join(imageDir, file))).length;
    expect(total).toBeLessThan(3 * 1024 * 1024);
  });
});

function checkRichText(value: unknown, path: string): void {
  expect(Array.isArray(value), `${path} is rich text`).toBe(true);
  for (const [i, block] of (value as any[]).entries()) {
    if (block.type === "image") continue;
    expect(
      ["paragraph", "heading1", "heading2", "heading3", "heading4", "list-item", "o-list-item", "preformatted"],
      path,
    ).toContain(block.type);
    expect(typeof block.text, `${path}[${i}].text`).toBe("string");
    for (const span of block.spans) {
      expect(["strong", "em", "hyperlink"], path).toContain(span.type);
      expect(
        span.start >= 0 && span.end <= block.text.length && span.start < span.end,
        `${path}[${i}] span ${span.start}-${span.end}`,
      ).toBe(true);
      if (span.type === "hyperlink") expect(span.data?.link_type, path).toBeDefined();
    }
  }
}

function checkFields(values: Record<string, any>, fields: Record<string, Field>, path: string): void {
  expect(Object.keys(values).sort(), `${path}: fields`).toEqual(Object.keys(fields).sort());
  for (const [id, field] of Object.entries(fields)) {
    const value = values[id];
    const where = `${path}.${id}`;
    switch (field.type) {
      case "StructuredText":
        checkRichText(value, where);
        break;
      case "Text":
        expect(value === null || typeof value === "string", where).toBe(true);
        break;
      case "Number":
        expect(value === null || typeof value === "number", where).toBe(true);
        break;
      case "Date":
        expect(value === null || /^\d{4}-\d{2}-\d{2}$/.test(value), where).toBe(true);
        break;
      case "Select":
        expect([null, ...field.config.options], where).toContain(value);
        break;
      case "Image":
        expect(typeof value, where).toBe("object");
        break;
      case "Link":
        expect(value?.link_type, where).toBeDefined();
        if (field.config?.select === "document" && value.link_type === "Document")
          expect(field.config.customtypes, where).toContain(value.type);
        break;
      case "Group":
        for (const [i, item] of (value as any[]).entries()) checkFields(item, field.config.fields, `${where}[${i}]`);
        break;
      case "Slices":
        for (const [i, slice] of (value as any[]).entries()) {
          const variation = sliceModels.get(slice.slice_type);
          expect(variation, `${where}[${i}] ${slice.slice_type}`).toBeDefined();
          expect(slice).toMatchObject({ slice_label: null, variation: "default" });
          expect(slice.id).toMatch(new RegExp(`^${slice.slice_type}\\$[0-9a-f-]{36}$`));
          checkFields(slice.primary, variation.primary, `${where}[${i}].primary`);
          for (const [j, item] of (slice.items as any[]).entries())
            checkFields(item, variation.items, `${where}[${i}].items[${j}]`);
          if (Object.keys(variation.items).length === 0) expect(slice.items, where).toEqual([]);
        }
        break;
      default:
        throw new Error(`${where}: no check for field type ${field.type}`);
    }
  }
}

describe("sample snapshot: documents match their models", () => {
  it("has exactly the model's fields, with values of the right kind, in every document", () => {
    for (const doc of docs) {
      const model = models.get(doc.type)!;
      const fields: Record<string, Field> = Object.assign({}, ...Object.values(model.json));
      delete fields.uid;
      checkFields(doc.data, fields, `${doc.type}:${doc.uid ?? doc.lang}`);
    }
  });
});

describe("sample snapshot: generated", () => {
  it("is exactly what scripts/sample/generate.ts produces", async () => {
    const text = await readFile(join(sampleDir, "snapshot.json"), "utf8");
    const fresh = await buildSampleSnapshot(imageDir);
    expect(JSON.parse(text), "Regenerate with `node scripts/sample/generate.mjs`").toEqual(
      JSON.parse(JSON.stringify(fresh)),
    );
    // Same bytes as writeSnapshot would write: documents sorted by id, one-space indentation.
    expect(text).toBe(JSON.stringify(fresh, null, 1) + "\n");
  }, 60_000);
});
