/**
 * What each folder README of src/ says its folder may import: the paragraph that starts
 * `May import:`, its first sentence. There, each backticked folder name (`core`) or path
 * (`payments/types.ts`) names a folder; `any folder` allows every one, `nothing outside` none.
 * Used by imports.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./folder-imports.js";

export interface MayImport {
  folder: string;
  /** null: any folder. */
  allowed: Set<string> | null;
  /** Backticked names in the list that are no folder of the project (a folder since renamed). */
  unknown: string[];
}

const FOLDER_NAMES = new Set(["templates"]);

export function firstSentence(paragraph: string): string {
  const text = paragraph.replace(/\s+/g, " ").trim();
  const end = /[.;](?=\s|$)/.exec(text);
  return end ? text.slice(0, end.index) : text;
}

export function parseMayImport(folder: string, readme: string, isFolder: (name: string) => boolean): MayImport | null {
  const paragraph = readme.split(/\n\s*\n/).find((p) => p.startsWith("May import:"));
  if (paragraph === undefined) return null;
  const sentence = firstSentence(paragraph.slice("May import:".length));
  if (/^any folder/.test(sentence)) return { folder, allowed: null, unknown: [] };
  const allowed = new Set<string>();
  const unknown: string[] = [];
  for (const [, name] of sentence.matchAll(/`([^`]+)`/g)) {
    // A file name alone (`coded-error.ts`) narrows the folder named before it; `/status` is a URL.
    if (!/^[a-z][a-z0-9-]*(\/|$)/.test(name!)) continue;
    if (!name!.includes("/") && /\.[a-z]+$/.test(name!)) continue;
    const head = name!.split("/")[0]!;
    if (isFolder(head)) allowed.add(head);
    else unknown.push(name!);
  }
  return { folder, allowed, unknown };
}

/** Every folder of src/ with a README that has a `May import:` paragraph. */
export function mayImportLists(): MayImport[] {
  const src = join(ROOT, "src");
  const folders = readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  const isFolder = (name: string) => FOLDER_NAMES.has(name) || folders.includes(name);
  return folders.flatMap((folder) => {
    const file = join(src, folder, "README.md");
    if (!existsSync(file)) return [];
    const list = parseMayImport(folder, readFileSync(file, "utf8"), isFolder);
    return list ? [list] : [];
  });
}
