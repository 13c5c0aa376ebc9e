/**
 * The preview bundle's entry (src/bundle/island-bundle.ts bundlePreview): imported by
 * src/client/site/preview-loader.ts when a preview may be running, and loaded directly by the
 * resolver page /preview/. Everything lives in ./start-preview.ts.
 */
import { startPreview } from "./start-preview.js";

startPreview();
