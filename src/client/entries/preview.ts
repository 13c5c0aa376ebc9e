/**
 * The preview bundle: imported by src/client/site/preview-loader.ts when a preview may be running, and loaded
 * directly by the resolver page /preview/. Everything lives in src/client/preview/start-preview.tsx.
 */
import { startPreview } from "../preview/start-preview.js";

startPreview();
