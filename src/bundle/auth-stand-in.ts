/**
 * Bundles that only render islands to HTML (the templates on the build machine, the preview in the
 * editor's browser) get a stand-in for the auth library: see src/auth/amplify-stub.ts.
 */
import { basename, join } from "node:path";
import type { Plugin } from "esbuild";

/** Resolves imports matching `pattern` to `replacement`. */
export function replaceModule(pattern: RegExp, replacement: string): Plugin {
  return {
    // The name says what is replaced: it is part of the bundle's cache key.
    name: `nzf-replace-module ${pattern.source} → ${basename(replacement)}`,
    setup(build) {
      build.onResolve({ filter: pattern }, () => ({ path: replacement }));
    },
  };
}

/** src/auth/amplify.ts replaced by src/auth/amplify-stub.ts. */
export function authStandIn(root: string): Plugin {
  return replaceModule(/\/auth\/amplify(\.js)?$/, join(root, "src/auth/amplify-stub.ts"));
}
