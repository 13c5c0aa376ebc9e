import type { ReactNode } from "react";
import type { PageMeta, TemplateContext } from "../src/template-kit/types.js";

/** A page template: its `<head>` metadata and its body. The layout (header, footer) is added around the body. */
export interface Template {
  meta(ctx: TemplateContext): PageMeta;
  Body(props: { ctx: TemplateContext }): ReactNode;
  /** Pages like redirects render without the site frame. */
  bare?: boolean;
}
