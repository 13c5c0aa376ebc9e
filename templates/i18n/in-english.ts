/**
 * The words that say a link leads to a page in English, per language's primary subtag. A module of
 * its own, without the chrome's dictionaries: page bodies use it (rich-text links, cards), and a
 * body that imported the chrome's words would be rendered again whenever those words change
 * (src/bundle/template-bundle.ts, bodyHashOf; test/render/body-cache.test.ts).
 */
const IN_ENGLISH: Record<string, string> = { en: "in English", ar: "بالإنجليزية" };

export function inEnglishWords(lang: string): string {
  return IN_ENGLISH[lang.split("-")[0]!.toLowerCase()] ?? IN_ENGLISH.en!;
}
