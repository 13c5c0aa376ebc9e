/**
 * Which layouts each image is prepared for. The stage runs before the templates, so it cannot see
 * which layout a template will ask for; this policy mirrors the templates: logos and people's photos
 * are shown at a fixed size, everything else constrained to the 800 px content width. A template
 * asking for a layout an image was not prepared for still gets a valid srcset of the widths that
 * exist (see image-lookup.ts); add the field here to get the ideal candidates.
 */
import type { ImageLayout } from "./types.js";
import type { ImageUse } from "./collect.js";

const FIXED_FIELDS = /(^|\.)(logo|photo)$/;
/** Full-width fields (none in the current templates; kept so a full-bleed banner is one line away). */
const FULL_FIELDS = /(^|\.)(banner_image|background_image)$/;

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
