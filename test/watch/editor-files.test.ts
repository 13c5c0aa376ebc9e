import { describe, expect, it } from "vitest";
import { isEditorTemporary } from "../../src/watch/editor-files.js";

describe("the files watch mode leaves alone", () => {
  it.each([
    ["sed -i", "templates/pages/sedAb12Cd"],
    ["sed -i, digits", "src/client/islands/sed0Z9xQ1"],
    ["vim's write test", "templates/pages/4913"],
    ["vim's write test, taken once", "templates/5036"],
    ["vim's swap", "templates/pages/.faq.tsx.swp"],
    ["vim's swap, next", "templates/pages/.faq.tsx.swo"],
    ["vim's swap without a dot", "templates/pages/faq.tsx.swx"],
    ["a backup", "templates/pages/faq.tsx~"],
    ["emacs' auto-save", "templates/pages/#faq.tsx#"],
    ["emacs' lock", "templates/pages/.#faq.tsx"],
    ["an atomic writer's temporary", "content-cache/sample/snapshot.json.12345.tmp"],
    ["JetBrains' safe write", "templates/pages/faq.tsx___jb_tmp___"],
    ["kate's swap", "templates/pages/faq.tsx.kate-swp"],
    ["Chromium's File System API", "templates/styles/site.css.crswap"],
    ["in a dot folder", "templates/.idea/workspace.xml"],
    ["Windows separators", "templates\\pages\\faq.tsx~"],
  ])("%s: %s", (_what, file) => {
    expect(isEditorTemporary(file)).toBe(true);
  });

  it.each([
    "templates/pages/faq.tsx",
    "templates/styles/site.css",
    "src/client/islands/faq-filter.tsx",
    "content-cache/sample/snapshot.json",
    // Names that only look like the patterns.
    "templates/pages/sedan.tsx",
    "src/sed.ts",
    "templates/sedAb12Cd.tsx",
    "templates/4914",
    "content-cache/2026/snapshot.json",
    "templates/pages/swap.tsx",
  ])("a source: %s", (file) => {
    expect(isEditorTemporary(file)).toBe(false);
  });
});
