/**
 * The image component: `<picture>` with a `<source>` per modern format and the fallback in the
 * `<img>`'s own `srcset`, `sizes`, explicit width and height (no layout shift), and alt text from the
 * content: decorative images (empty alt in Prismic) get `alt=""` so screen readers skip them. Only
 * the page's main image (`priority`) loads eagerly with high fetch priority, the header's logo
 * (`eager`) eagerly at the usual priority; every other image is lazy. The blurred placeholder is a data-URL `<img>` under the picture (no inline style or script,
 * so a strict Content-Security-Policy only needs `img-src data:`); see templates/styles/images.css.
 */
import { createContext, useContext } from "react";
import type { ImageLayout, ImageLookup, ImagePreload } from "../../src/template-kit/types.js";
import { ASPECT_FALLBACK, defaultSizes, displayWidth, DEFAULT_WIDTH, FIXED_WIDTH } from "../../src/images/sizes.js";
import type { ImageValue } from "./fields.js";
import { isSafeUrl } from "../../src/content/safe-url.js";

export interface PictureProps {
  image: ImageValue | undefined;
  images: ImageLookup;
  layout?: ImageLayout;
  /** The `sizes` attribute: how wide the image is displayed. */
  sizes?: string;
  /** The page's largest image: eager, high fetch priority. */
  priority?: boolean;
  /**
   * Eager without priority: an image small and always in view at the top (the header's logo), which
   * a lazy load left blank on a slow line while the hero painted.
   */
  eager?: boolean;
  className?: string;
}

/** The size the `<img>` declares: the layout's display width, keeping the aspect ratio (4/3 when unknown). */
export function pictureSize(layout: ImageLayout, width: number, height: number): { width: number; height: number } {
  if (!(width > 0)) {
    const w = layout === "fixed" ? FIXED_WIDTH : DEFAULT_WIDTH;
    return { width: w, height: Math.round(w / ASPECT_FALLBACK) };
  }
  const w = displayWidth(layout, width);
  const ratio = height > 0 ? width / height : ASPECT_FALLBACK;
  return { width: w, height: Math.max(1, Math.round(w / ratio)) };
}

/**
 * Where the page's first main image (`priority`) is noted, for the document head to preload it:
 * found only in the body, Lighthouse's simulated slow connection fetched it alongside the page's
 * scripts, which delayed the pay page's largest contentful paint.
 */
export const ImagePreloadContext = createContext<{ first?: ImagePreload } | null>(null);

export function Picture({
  image,
  images,
  layout = "constrained",
  sizes,
  priority = false,
  eager = false,
  className,
}: PictureProps) {
  const preload = useContext(ImagePreloadContext);
  // An image URL that could run script is never written (the build names it: src/content/content-checks.ts).
  if (!image?.url || !isSafeUrl(image.url, "image")) return null;
  const processed = images.get(image.url, layout);
  // Refused by the build (a host images may not come from: src/images/source-policy.ts): left out, never linked.
  if (processed === null) return null;
  const size = pictureSize(layout, processed?.width ?? image.width, processed?.height ?? image.height);
  const effectiveSizes = sizes ?? defaultSizes(layout, size.width);
  const sources = processed?.sources ?? [];
  const fallback = sources.at(-1);
  // The browser takes the first <source> it supports: the preload names the first, with its type,
  // so a browser without that format preloads nothing rather than a file it will not use.
  if (priority && preload && !preload.first && sources[0]) {
    preload.first = {
      srcset: sources[0].srcset,
      sizes: effectiveSizes,
      ...(sources.length > 1 ? { type: sources[0].type } : {}),
    };
  }
  return (
    <span className={["nzf-picture", className].filter(Boolean).join(" ")} data-layout={layout}>
      {processed?.placeholder ? (
        <img
          className="nzf-placeholder"
          src={processed.placeholder}
          width={size.width}
          height={size.height}
          alt=""
          aria-hidden="true"
        />
      ) : null}
      <picture>
        {sources.slice(0, -1).map((s) => (
          <source key={s.type} type={s.type} srcSet={s.srcset} sizes={effectiveSizes} />
        ))}
        <img
          className="nzf-image"
          src={processed?.src ?? image.url}
          srcSet={fallback?.srcset}
          sizes={fallback ? effectiveSizes : undefined}
          width={size.width}
          height={size.height}
          alt={image.alt ?? ""}
          loading={priority || eager ? "eager" : "lazy"}
          decoding={priority ? "auto" : "async"}
          fetchPriority={priority ? "high" : undefined}
        />
      </picture>
    </span>
  );
}
