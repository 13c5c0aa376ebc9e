/**
 * Site-wide files beside the pages: the redirect list for static hosts that read one
 * (`_redirects`, Netlify/Cloudflare Pages format). Each redirect also has an HTML page with a
 * meta refresh (see the "redirect" template), so hosts without redirect rules work too.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PageEntry } from "./pages.js";

export async function writeSiteFiles(siteDir: string, pages: PageEntry[], _siteUrl: string): Promise<void> {
  const redirects = pages.filter((p) => p.redirectTo).map((p) => `${p.path} ${p.redirectTo} 301\n${p.path.replace(/\/$/, "")} ${p.redirectTo} 301`);
  await writeFile(join(siteDir, "_redirects"), redirects.join("\n") + "\n");
}
