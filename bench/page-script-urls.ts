/**
 * Every script file a built page loads, as site URLs: its module scripts and modulepreloads, and the
 * modules and chunks its page-scripts loader starts once the page has painted (the
 * `data-page-modules` and `data-page-chunks` of that script's tag, templates/document.ts).
 */
export function pageScriptUrls(html: string): string[] {
  const tags = [
    ...html.matchAll(/<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+)"/g),
  ].map((m) => m[1]!);
  const started = [...html.matchAll(/data-page-(?:modules|chunks)="([^"]*)"/g)].flatMap((m) =>
    m[1]!.split(" ").filter(Boolean),
  );
  return [...new Set([...tags, ...started])];
}
