/**
 * What the image pipeline hands to the render and the templates: a processed image, the lookup from
 * a Prismic image URL to it, and the layouts an image can be displayed in.
 */

/** A processed image as templates use it (see src/images). */
export interface ImageSource {
  /** Fallback `src` (JPEG/PNG), the largest width generated. */
  src: string;
  width: number;
  height: number;
  /** `srcset` candidates per MIME type, best format first; the last is the fallback format. */
  sources: { type: string; srcset: string }[];
  /** Inline blurred placeholder (data URL), when one was made. */
  placeholder?: string;
}

/**
 * Looks up the processed version of a Prismic image URL: undefined when it was not processed (the
 * editor preview shows the original), null when the build refused it (a host images may not come
 * from, a file name outside the images folder): the picture is then left out, never linked.
 */
export interface ImageLookup {
  get(url: string, layout?: ImageLayout): ImageSource | null | undefined;
}

/** How an image is displayed: full-width (breakpoints), constrained to a width (densities), or fixed. */
export type ImageLayout = "full" | "constrained" | "fixed";
