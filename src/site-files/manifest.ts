/**
 * The web app manifest (the foundation's colour #663399, display minimal-ui, start URL /, as the
 * Gatsby site's). Written as /manifest.webmanifest with keys in a fixed order, so the same input gives the
 * same bytes.
 */
import { ICON_URLS, THEME_COLOUR } from "./icons.js";

export interface ManifestInput {
  /** The global document's site name, e.g. "National Zakat Foundation". */
  name: string;
  description?: string;
}

export const MANIFEST_URL = "/manifest.webmanifest";

export function buildManifest(input: ManifestInput): Record<string, unknown> {
  const manifest: Record<string, unknown> = {
    name: input.name,
    short_name: "NZF",
    id: "/",
    start_url: "/",
    scope: "/",
    display: "minimal-ui",
    theme_color: THEME_COLOUR,
    background_color: "#ffffff",
    lang: "en-AU",
    dir: "ltr",
    icons: [
      { src: ICON_URLS.icon192, sizes: "192x192", type: "image/png", purpose: "any" },
      { src: ICON_URLS.icon512, sizes: "512x512", type: "image/png", purpose: "any" },
      { src: ICON_URLS.maskable512, sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  if (input.description) manifest.description = input.description;
  return manifest;
}

export function manifestJson(input: ManifestInput): string {
  return JSON.stringify(buildManifest(input), null, 2) + "\n";
}
