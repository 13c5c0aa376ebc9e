/**
 * Keeps one fetch run on one version of the content.
 *
 * `@prismicio/client` works against us in two places, so this `fetch` layer (between the client and
 * the retrying fetch) closes both:
 *
 * 1. On a 404 `api_notfound_error` or a 410 for a ref, the client silently re-queries with the
 *    *current* master ref taken from the error message. Mid-run, that would mix two versions of the
 *    content. We turn those answers into PRISMIC_REF_NOT_FOUND before the client sees them, and
 *    refuse any search whose `ref` is not the pinned one.
 * 2. Without an `integrationFieldsRef`, the client re-reads the repository root whenever its 5 s
 *    cache expires (every page of a long fetch). We answer repeated root requests from the first
 *    successful one, so the root is read once per run.
 */
import { NzfError } from "../core/errors.js";
import { redactUrl } from "./fetch-retry.js";

export interface PinnedFetch {
  fetch: typeof globalThis.fetch;
  /** From now on every documents search must use `ref`. */
  pin(ref: string): void;
}

export function createPinnedFetch(inner: typeof globalThis.fetch, endpoint: string): PinnedFetch {
  const rootPath = new URL(endpoint).pathname.replace(/\/+$/, "");
  const searchPath = `${rootPath}/documents/search`;
  let pinned: string | undefined;
  let root: { body: string; headers: Headers } | undefined;

  const pinnedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.toString() : input.url);
    const path = url.pathname.replace(/\/+$/, "");

    if (path === rootPath) {
      if (root) return new Response(root.body, { status: 200, headers: root.headers });
      const response = await inner(url.toString(), init);
      if (!response.ok) return response;
      const body = await response.text();
      root = { body, headers: response.headers };
      return new Response(body, { status: response.status, headers: response.headers });
    }

    if (path === searchPath && pinned !== undefined) {
      const ref = url.searchParams.get("ref");
      if (ref !== pinned) {
        throw new NzfError(
          "INTERNAL",
          `A content query used ref ${ref ?? "(none)"} instead of the pinned master ref ${pinned}`,
          { subject: redactUrl(url.toString()) },
        );
      }
      const response = await inner(url.toString(), init);
      if (response.status !== 404 && response.status !== 410) return response;
      const body = await response.text();
      let type: string | undefined;
      let message: string | undefined;
      try {
        ({ type, message } = JSON.parse(body) as { type?: string; message?: string });
      } catch {
        // Not JSON: not a ref error, let the client map the status.
      }
      if (response.status === 410 || type === "api_notfound_error") {
        throw new NzfError("PRISMIC_REF_NOT_FOUND", "Ref could not be found.", {
          subject: redactUrl(url.toString()),
          cause: new Error(`Prismic answered ${response.status} for ref ${pinned}: ${message ?? body.slice(0, 200)}`),
        });
      }
      return new Response(body, { status: response.status, headers: response.headers });
    }

    return inner(url.toString(), init);
  };

  return {
    fetch: pinnedFetch as typeof globalThis.fetch,
    pin(ref) {
      pinned = ref;
    },
  };
}
