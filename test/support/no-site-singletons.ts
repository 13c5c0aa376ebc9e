/**
 * The content check with no required singletons, for tests of the Prismic transfer alone (paging,
 * retries, stalls, partial fetches) whose synthetic documents are no site. A test file mocks
 * src/content/snapshot-check.ts with this module; every other check runs as it is.
 *
 *   vi.mock("../../src/content/snapshot-check.js", () => import("../support/no-site-singletons.js"));
 */
import { vi } from "vitest";
import type * as SnapshotCheck from "../../src/content/snapshot-check.js";

const actual = await vi.importActual<typeof SnapshotCheck>("../../src/content/snapshot-check.js");

export const SITE_SINGLETONS: readonly string[] = [];
export const checkSiteContent: typeof actual.checkSiteContent = (snapshot, what, required = SITE_SINGLETONS) =>
  actual.checkSiteContent(snapshot, what, required);
