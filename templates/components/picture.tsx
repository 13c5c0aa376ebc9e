/**
 * The image component: `<picture>` with a source per format, `srcset`/`sizes`, explicit width and
 * height (no layout shift) and alt text from the content. Decorative images (empty alt in Prismic)
 * get `alt=""` so screen readers skip them. Only the page's main image loads eagerly with high
 * priority; every other image is lazy.
 */
import type { ImageLayout, ImageLookup } from "../../src/render/types.js";
import type { ImageValue } from "./fields.js";

export interface PictureProps {
  image: ImageValue | undefined;
  images: ImageLookup;
  layout?: ImageLayout;
  /** The `sizes` attribute: how wide the image is displayed. */
  sizes?: string;
  /** The page's largest image: eager, high fetch priority. */
  priority?: boolean;
  className?: string;
}

export function Picture({ image, images, layout = "constrained", sizes, priority = false, className }: PictureProps) {
  if (!image) return null;
  const processed = images.get(image.url, layout);
  const alt = image.alt ?? "";
  const width = processed?.width ?? image.width;
  const height = processed?.height ?? image.height;
  const src = processed?.src ?? image.url;
  const effectiveSizes = sizes ?? (layout === "full" ? "100vw" : layout === "fixed" ? `${width}px` : `(max-width: 800px) 100vw, 800px`);
  const style = processed?.placeholder ? { backgroundImage: `url("${processed.placeholder}")` } : undefined;
  return (
    <picture className={["nzf-picture", className].filter(Boolean).join(" ")}>
      {processed?.sources.slice(0, -1).map((s) => <source key={s.type} type={s.type} srcSet={s.srcset} sizes={effectiveSizes} />)}
      <img
        src={src}
        srcSet={processed?.sources.at(-1)?.srcset}
        sizes={processed?.sources.length ? effectiveSizes : undefined}
        width={width || undefined}
        height={height || undefined}
        alt={alt}
        loading={priority ? "eager" : "lazy"}
        decoding={priority ? "sync" : "async"}
        fetchPriority={priority ? "high" : undefined}
        style={style}
        className={processed?.placeholder ? "nzf-placeholder" : undefined}
      />
    </picture>
  );
}
