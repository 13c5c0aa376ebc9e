/**
 * Every document at the preview ref, page by page (100 per page, the API's maximum). The preview
 * ref shows the repository as it would be with the drafts published, so this is the whole site's
 * content for the preview. No pause between pages: the build pauses to be gentle on bulk fetches;
 * an editor waiting for one preview is not that.
 */
import type { PrismicDocument } from "@prismicio/client";
import type { PreviewClient } from "../preview/content-api.js";

export const PREVIEW_PAGE_SIZE = 100;

export async function loadAllDocuments(client: PreviewClient): Promise<PrismicDocument[]> {
  const documents: PrismicDocument[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.search({ pageSize: String(PREVIEW_PAGE_SIZE), page: String(page) });
    documents.push(...(answer.results as unknown as PrismicDocument[]));
    if (page >= (answer.total_pages || 1)) return documents;
  }
}
