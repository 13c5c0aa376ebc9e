/**
 * The BCP 47 tag as HTML writes it (en-au → en-AU). A module of its own, without the dictionaries:
 * page bodies use it (a card's language), and a body that imported the chrome's words would be
 * rendered again whenever those words change (src/bundle/template-bundle.ts, bodyHashOf).
 */
export function htmlLang(lang: string): string {
  const [primary, region] = lang.split("-");
  return region ? `${primary}-${region.toUpperCase()}` : primary!;
}

const RTL_LANGS = ["ar", "fa", "he", "ur"];

/** The direction a language is written in: "rtl" for Arabic (and Persian, Hebrew, Urdu), else "ltr". */
export function dirOf(lang: string): "rtl" | "ltr" {
  return RTL_LANGS.includes(lang.split("-")[0]!.toLowerCase()) ? "rtl" : "ltr";
}
