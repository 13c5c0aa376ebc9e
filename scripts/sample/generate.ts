/**
 * Builds the bundled sample snapshot (content-cache/sample/snapshot.json) from the authored
 * documents in this folder. Deterministic: fixed dates, ids derived from type/uid/lang, documents
 * sorted by id, the ref derived from the content. Run it with `node scripts/sample/generate.mjs`.
 *
 * What it adds to the authored specs, the way Prismic's API would: document ids, slugs,
 * publication dates, alternate languages (same type and uid in another language), full document
 * link objects (a link to a missing document is an error here), slice ids, and image dimensions
 * read from the real files.
 */
import { createHash } from "node:crypto";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { snapshotPath, type Snapshot } from "../../src/content/snapshot.js";
import { arabicDocuments, arabicPayDocuments } from "./arabic.js";
import { blogDocuments } from "./blog.js";
import { caseDocuments } from "./cases.js";
import { donationDocuments } from "./donation-pages.js";
import { globalDocuments } from "./global.js";
import {
  documentId,
  hash,
  SAMPLE_REPOSITORY,
  setImageDimensions,
  type DocSpec,
  type Json,
  type Lang,
} from "./helpers.js";
import { infoPageDocuments } from "./info-pages.js";
import { landingDocuments } from "./landing.js";
import { memberDocuments } from "./members.js";
import { mainPageDocuments } from "./pages.js";
import { partnerDocuments, programDocuments } from "./programs.js";

export const SAMPLE_LANGUAGES: Lang[] = ["en-au", "ar-ae"];

export function allSpecs(): DocSpec[] {
  return [
    ...globalDocuments(),
    ...mainPageDocuments(),
    ...infoPageDocuments(),
    ...donationDocuments(),
    ...memberDocuments(),
    ...programDocuments(),
    ...partnerDocuments(),
    ...caseDocuments(),
    ...blogDocuments(),
    ...landingDocuments(),
    ...arabicDocuments(),
    ...arabicPayDocuments([...infoPageDocuments(), ...donationDocuments()]),
  ];
}

export async function readImageDimensions(imageDir: string): Promise<Map<string, { width: number; height: number }>> {
  const sizes = new Map<string, { width: number; height: number }>();
  for (const file of (await readdir(imageDir)).sort()) {
    const { width, height } = await sharp(join(imageDir, file)).metadata();
    if (!width || !height) throw new Error(`Cannot read the size of ${file}`);
    sizes.set(file, { width, height });
  }
  return sizes;
}

const key = (type: string, uid: string | null | undefined, lang: string) => `${type}/${uid ?? ""}/${lang}`;
const timestamp = (day: string) => `${day}T01:30:00+0000`;

/** Prismic's slug: lower case, words joined by hyphens; letters of any script are kept. */
export function slugify(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "") || "-"
  );
}

function sliceId(sliceType: string, seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return `${sliceType}$${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export async function buildSampleSnapshot(imageDir: string): Promise<Snapshot> {
  setImageDimensions(await readImageDimensions(imageDir));
  const specs = allSpecs();

  const byKey = new Map<string, { spec: DocSpec; id: string; lang: Lang }>();
  for (const spec of specs) {
    const lang = spec.lang ?? "en-au";
    const k = key(spec.type, spec.uid, lang);
    if (byKey.has(k)) throw new Error(`Two sample documents share type, uid and language: ${k}`);
    byKey.set(k, { spec, id: documentId(spec.type, spec.uid, lang), lang });
  }

  const linkTo = (target: { type: string; uid: string | null; lang: string }, from: string): Json => {
    const found = byKey.get(key(target.type, target.uid, target.lang));
    if (!found)
      throw new Error(`${from} links to ${key(target.type, target.uid, target.lang)}, which is not a sample document`);
    const { spec, id, lang } = found;
    return {
      id,
      type: spec.type,
      tags: spec.tags ?? [],
      lang,
      slug: slugify(spec.slugFrom),
      first_publication_date: timestamp(spec.published),
      last_publication_date: timestamp(spec.updated ?? spec.published),
      ...(spec.uid ? { uid: spec.uid } : {}),
      link_type: "Document",
      isBroken: false,
    };
  };

  const resolve = (value: Json, from: string): Json => {
    if (Array.isArray(value)) return value.map((v) => resolve(v, from));
    if (value && typeof value === "object") {
      if ("__link" in value) return linkTo(value.__link as { type: string; uid: string | null; lang: string }, from);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, from)]));
    }
    return value;
  };

  const documents = [...byKey.entries()].map(([k, { spec, id, lang }]) => {
    const data = resolve(spec.data, k) as Record<string, Json>;
    if (Array.isArray(data.slices)) {
      data.slices = data.slices.map((s, i) => ({
        ...(s as Record<string, Json>),
        id: sliceId(String((s as Record<string, Json>).slice_type), `${k}#${i}`),
      }));
    }
    const alternates = [...byKey.values()]
      .filter((o) => o.spec.type === spec.type && (o.spec.uid ?? null) === (spec.uid ?? null) && o.lang !== lang)
      .map((o) => ({ id: o.id, ...(o.spec.uid ? { uid: o.spec.uid } : {}), type: o.spec.type, lang: o.lang }));
    return {
      id,
      uid: spec.uid ?? null,
      url: null,
      type: spec.type,
      href: "",
      tags: spec.tags ?? [],
      first_publication_date: timestamp(spec.published),
      last_publication_date: timestamp(spec.updated ?? spec.published),
      slugs: [slugify(spec.slugFrom)],
      linked_documents: [],
      lang,
      alternate_languages: alternates,
      data,
    };
  });
  documents.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  // The ref changes whenever the content does, like a Prismic master ref after a publish.
  const ref = hash(JSON.stringify(documents));
  const api = `https://${SAMPLE_REPOSITORY}.cdn.prismic.io/api/v2/documents/search`;
  for (const doc of documents) {
    doc.href = `${api}?ref=${ref}&q=${encodeURIComponent(`[[:d = at(document.id, "${doc.id}") ]]`).replace(/%20/g, "+")}`;
  }
  return {
    format: 1,
    repository: SAMPLE_REPOSITORY,
    ref,
    languages: SAMPLE_LANGUAGES,
    documents: documents as unknown as Snapshot["documents"],
  };
}

/** Regenerates content-cache/sample/snapshot.json under the given repository root. */
export async function writeSampleSnapshot(root: string): Promise<{ file: string; snapshot: Snapshot }> {
  const sampleDir = join(root, "content-cache", "sample");
  const snapshot = await buildSampleSnapshot(join(sampleDir, "images"));
  const file = snapshotPath(join(root, "content-cache"), "sample");
  // Indented, unlike a fetched snapshot (writeSnapshot's one document a line): the sample is
  // reviewed in diffs, and test/content/sample-snapshot.test.ts holds it to these bytes.
  await writeFile(file, JSON.stringify(snapshot, null, 1) + "\n");
  return { file, snapshot };
}
