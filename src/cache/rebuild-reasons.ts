/**
 * Why each page of a build is rendered again, for `NZF_DEBUG=cache` (a stale page was once found
 * only by a flaky browser test; this says which input made each page render). Called only when
 * the switch is on.
 */
export interface RebuildFacts {
  outDir: string;
  /** Whether the last build's record describes this output folder. */
  incremental: boolean;
  /** Whether what every page depends on (templates, bundles, stylesheet, images, settings) is unchanged. */
  sameGlobals: boolean;
  /** Content that changed since the last build (null when every page renders anyway). */
  changed: ReadonlySet<string> | null;
  /** Each rendered page with its recorded dependencies from the last build (undefined: new page). */
  rendered: { file: string; lastDeps: readonly string[] | undefined }[];
  pages: number;
}

export function explainRebuild(facts: RebuildFacts, say: (family: string, message: string) => void): void {
  if (!facts.incremental) {
    say(
      "pages",
      `all ${facts.pages} pages rendered: no record of a build into ${facts.outDir} (or its index.html is gone)`,
    );
    return;
  }
  if (!facts.sameGlobals) {
    say(
      "pages",
      `all ${facts.pages} pages rendered: what every page depends on changed (templates, bundles, stylesheet, images or site settings)`,
    );
    return;
  }
  for (const { file, lastDeps } of facts.rendered) {
    if (lastDeps === undefined) {
      say("pages", `${file}: rendered, a new page`);
      continue;
    }
    const moved = lastDeps.filter((dep) => facts.changed?.has(dep));
    say(
      "pages",
      `${file}: rendered, ${moved.length ? `changed: ${moved.slice(0, 5).join(", ")}${moved.length > 5 ? ` and ${moved.length - 5} more` : ""}` : "no recorded dependencies"}`,
    );
  }
  say(
    "pages",
    `${facts.pages - facts.rendered.length} of ${facts.pages} pages kept as published: nothing they read changed`,
  );
}
