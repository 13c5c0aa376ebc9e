/**
 * Which layouts each image is prepared for. The stage runs before the templates, so it cannot see
 * which layout a template will ask for; this policy mirrors the templates: logos and people's photos
 * are shown at a fixed size, page heroes (`hero_image`, templates/components/blocks.tsx `Hero`) span
 * a phone's screen and are made at the breakpoints, everything else is constrained to the 800 px
 * content width. An image used in several places (a hero that is also an article's featured image)
 * is prepared for each layout. A template asking for a layout an image was not prepared for still
 * gets a valid srcset of the widths that exist (see image-lookup.ts); add the field here to get the
 * ideal candidates.
 */
import type { ImageLayout } from "./types.js";
import type { ImageUse } from "./collect.js";

const FIXED_FIELDS = /(^|\.)(logo|photo)$/;
/** Full-width fields: the page heroes, and a full-bleed banner or background should a template show one. */
const FULL_FIELDS = /(^|\.)(hero_image|banner_image|background_image)$/;

export function layoutsFor(use: Pick<ImageUse, "field">): ImageLayout[] {
  if (FIXED_FIELDS.test(use.field)) return ["fixed"];
  if (FULL_FIELDS.test(use.field)) return ["full"];
  return ["constrained"];
}

/** The union for an image used in several places, in a stable order. */
export function mergeLayouts(lists: readonly ImageLayout[][]): ImageLayout[] {
  const order: ImageLayout[] = ["constrained", "fixed", "full"];
  const all = new Set(lists.flat());
  return order.filter((l) => all.has(l));
}
