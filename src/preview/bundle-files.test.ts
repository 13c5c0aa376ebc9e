import { describe, expect, it } from "vitest";
import { previewOnlyFiles } from "./bundle-files.js";

const asset = (src: string, imports: string[] = []) => ({ src, imports, bytes: 1 });

describe("previewOnlyFiles", () => {
  it("is the preview entry and the chunks only it imports, relative to the site folder", () => {
    const bundle = {
      islands: { calculator: asset("/_islands/calculator-A.js", ["/_islands/chunks/react-R.js"]) },
      scripts: {
        "preview-loader": asset("/_islands/preview-loader-L.js"),
        preview: asset("/_islands/preview-P.js", ["/_islands/chunks/react-R.js", "/_islands/chunks/server-S.js"]),
      },
    };
    expect(previewOnlyFiles(bundle)).toEqual(["_islands/chunks/server-S.js", "_islands/preview-P.js"]);
  });

  it("is empty without a preview script", () => {
    expect(previewOnlyFiles({ islands: {}, scripts: { gtm: asset("/_islands/gtm-G.js") } })).toEqual([]);
  });
});
