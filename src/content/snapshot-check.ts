/**
 * Whether a snapshot holds a site at all. A snapshot with no documents once published an 8-page
 * site with no home page, and one without the global document (navigation, footer, every page's
 * settings) renders every page without them. Such content is refused where it would do harm: a
 * fetch never writes it (the last good snapshot stays), and a build never plans from it (the last
 * good dist/ stays).
 */
import { NzfError } from "../core/errors.js";
import type { Snapshot } from "./snapshot.js";

/** The singletons every page of the site reads (global) or that the site's root is (home_page). */
export const SITE_SINGLETONS: readonly string[] = ["global", "home_page"];

/**
 * Throws SNAPSHOT_INCOMPLETE when the snapshot has no documents, or lacks a document of one of
 * `required` types in its master language. `what` names the content ("the snapshot at <file>").
 */
export function checkSiteContent(
  snapshot: Pick<Snapshot, "documents" | "languages">,
  what: string,
  required: readonly string[] = SITE_SINGLETONS,
): void {
  if (snapshot.documents.length === 0) {
    throw new NzfError("SNAPSHOT_INCOMPLETE", `The content of ${what} has no documents: there is no site to build.`, {
      subject: what,
    });
  }
  const master = snapshot.languages[0];
  const present = new Set(
    snapshot.documents.filter((d) => master === undefined || d.lang === master).map((d) => d.type),
  );
  const missing = required.filter((type) => !present.has(type));
  if (missing.length > 0) {
    const names = missing.map((type) => `"${type}"`).join(" and ");
    throw new NzfError(
      "SNAPSHOT_INCOMPLETE",
      `The content of ${what} has no ${names} document${missing.length === 1 ? "" : "s"}${master ? ` in ${master}` : ""} (${snapshot.documents.length} documents): every page needs ${missing.length === 1 ? "it" : "them"}.`,
      { subject: what },
    );
  }
}
