/**
 * Which widths an image is made in, and how big it is shown: the numbers the Gatsby site's image
 * plugin used, so pages lay out as they did.
 * Pure functions, no sharp, so the size logic is unit-tested on its own.
 *
 * - full: the breakpoints 750, 1080, 1366, 1920 (the image spans the viewport).
 * - constrained: 0.25, 0.5, 1 and 2 × the displayed width (800 by default, and never wider than
 *   the fluid maximum 800).
 * - fixed: the fixed width 400 and its 2x.
 * Candidates wider than the original are dropped and replaced by the original width itself, so we
 * never upscale but still offer the sharpest version there is.
 */
import type { ImageLayout } from "./types.js";

export const BREAKPOINTS = [750, 1080, 1366, 1920] as const;
export const DENSITIES = [0.25, 0.5, 1, 2] as const;
export const DEFAULT_WIDTH = 800;
export const FLUID_MAX_WIDTH = 800;
export const FIXED_WIDTH = 400;
export const ASPECT_FALLBACK = 4 / 3;
export const PLACEHOLDER_WIDTH = 100;
export const PLACEHOLDER_BLUR = 15;

export interface Size {
  width: number;
  height: number;
}

/** The width an image is displayed at for a layout (before the browser scales it down further). */
export function displayWidth(layout: ImageLayout, originalWidth: number): number {
  if (layout === "full") return originalWidth;
  const target = layout === "fixed" ? FIXED_WIDTH : Math.min(DEFAULT_WIDTH, FLUID_MAX_WIDTH);
  return Math.min(target, originalWidth);
}

/** Candidate widths for a layout, ascending, none above the original, the original when it is smaller than the largest wanted. */
export function candidateWidths(layout: ImageLayout, originalWidth: number): number[] {
  if (!(originalWidth > 0)) throw new RangeError(`original width must be positive, got ${originalWidth}`);
  const wanted =
    layout === "full"
      ? [...BREAKPOINTS]
      : layout === "fixed"
        ? [FIXED_WIDTH, FIXED_WIDTH * 2]
        : DENSITIES.map((d) => Math.round(d * Math.min(DEFAULT_WIDTH, FLUID_MAX_WIDTH)));
  const fits = wanted.filter((w) => w <= originalWidth);
  if (fits.length < wanted.length) fits.push(originalWidth);
  return [...new Set(fits)].sort((a, b) => a - b);
}

/** Widths to make for all the layouts an image may be shown in. */
export function widthsForLayouts(layouts: readonly ImageLayout[], originalWidth: number): number[] {
  return [...new Set(layouts.flatMap((l) => candidateWidths(l, originalWidth)))].sort((a, b) => a - b);
}

/** Height for a width, keeping the aspect ratio; 4/3 when the ratio is unknown. Never below 1 px. */
export function heightFor(width: number, original: Partial<Size>): number {
  const ratio =
    original.width && original.height && original.width > 0 && original.height > 0
      ? original.width / original.height
      : ASPECT_FALLBACK;
  return Math.max(1, Math.round(width / ratio));
}

/** A `srcset` value from (url, width) candidates, ascending by width. */
export function srcset(candidates: readonly { url: string; width: number }[]): string {
  return [...candidates]
    .sort((a, b) => a.width - b.width)
    .map((c) => `${c.url} ${c.width}w`)
    .join(", ");
}

/** The default `sizes` attribute for a layout when the template does not give one. */
export function defaultSizes(layout: ImageLayout, width: number): string {
  if (layout === "full") return "100vw";
  if (layout === "fixed") return `${width}px`;
  return `(max-width: ${width}px) 100vw, ${width}px`;
}
