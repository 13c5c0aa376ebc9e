/**
 * The BCP 47 tag as HTML writes it (en-au → en-AU). A module of its own, without the dictionaries:
 * page bodies use it (a card's language), and a body that imported the chrome's words would be
 * rendered again whenever those words change (src/bundle/template-bundle.ts, bodyHashOf).
 */
export function htmlLang(lang: string): string {
  const [primary, region] = lang.split("-");
  return region ? `${primary}-${region.toUpperCase()}` : primary!;
}
