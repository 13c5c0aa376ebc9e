/**
 * The preview check that runs when a page mounts (the editor preview flow: src/preview/README.md),
 * with every piece of the browser passed in by PreviewRoot, so it holds no DOM global of its own.
 *
 *   resolver page (/preview/ with documentId and token):
 *     record the token as this repository's preview cookie, START_RESOLVING, fetch the document at
 *     the preview ref, resolve its path with the build's route table (fallback "/"), RESOLVED, and
 *     navigate there;
 *   any other page:
 *     no preview cookie for the repository → NOT_A_PREVIEW (the page stays as built);
 *     else START_BOOTSTRAPPING, then `bootstrap(ref, client, signal)` (the site loads the drafts and
 *     re-renders the page; without it, one query at the preview ref checks the ref and the access
 *     token), then BOOTSTRAPPED: the preview is active.
 *
 * Loading the drafts belongs to bootstrapping (as in the Gatsby preview plugin, which fetched every
 * document at the preview ref while bootstrapping): the loading dialog stays up until the draft is
 * on screen, and a 401 while loading still leads to the token prompt.
 *
 * The repository name is checked before any request ('An invalid repository name was given.').
 * 401/403 lead to the token prompt (or FAILED 'Unauthorized access' when prompting is off); other
 * failures to FAILED with their own message (src/preview/errors.ts).
 */

import {
  createPreviewClient,
  defaultEndpoint,
  type PreviewClient,
  type PreviewDocument,
} from "../preview/content-api.js";
import { accessTokenFromCookies, previewCookieFor, previewRefFromCookies, type CookieJar } from "../preview/cookies.js";
import { eventForError, type FetchLike } from "../preview/errors.js";
import type { PreviewEvent } from "../preview/machine.js";
import { repositoryNameError } from "../preview/repository-name.js";

/** The resolver page's path (STATIC_PAGES.preview in src/content/routes.ts). */
export const PREVIEW_RESOLVER_PATH = "/preview/";

export interface RunPreviewOptions {
  repositoryName: string;
  /** The v2 API endpoint; defaults to https://<repository>.cdn.prismic.io/api/v2. */
  endpoint?: string;
  fetch: FetchLike;
  location: { pathname: string; search: string };
  navigate: (path: string) => void;
  cookies: CookieJar;
  /** The build's route table (pathForDocument); null when the document has no page. */
  resolvePath: (document: PreviewDocument) => string | null;
  dispatch: (event: PreviewEvent) => void;
  /** Ask for an access token on 401/403 (default true). */
  promptForAccessToken?: boolean;
  /**
   * Runs while bootstrapping: load the drafts at `ref` and show them. Errors map like the check it
   * replaces (401/403 → token prompt). Check `signal.aborted` before changing the page.
   */
  bootstrap?: (ref: string, client: PreviewClient, signal: AbortSignal) => Promise<void>;
  /** Aborting stops requests and silences further events (Cancel, unmount). */
  signal?: AbortSignal;
  resolverPath?: string;
}

export type PreviewOutcome = "not-preview" | "resolved" | "active" | "prompt-for-access-token" | "failed" | "aborted";

function onResolverPage(pathname: string, resolverPath: string): boolean {
  const strip = (p: string) => p.replace(/\/+$/, "");
  return strip(pathname) === strip(resolverPath);
}

/** Runs the check once from the idle state. Resolves with where it ended; never rejects. */
export async function runPreview(options: RunPreviewOptions): Promise<PreviewOutcome> {
  const { repositoryName, cookies, signal } = options;
  const emit = (event: PreviewEvent) => {
    if (!signal?.aborted) options.dispatch(event);
  };
  const failWith = (error: unknown): PreviewOutcome => {
    if (signal?.aborted) return "aborted";
    const event = eventForError(error, { promptForAccessToken: options.promptForAccessToken });
    emit(event);
    return event.type === "PROMPT_FOR_ACCESS_TOKEN" ? "prompt-for-access-token" : "failed";
  };

  const params = new URLSearchParams(options.location.search);
  const documentId = params.get("documentId");
  const token = params.get("token");
  const resolving =
    onResolverPage(options.location.pathname, options.resolverPath ?? PREVIEW_RESOLVER_PATH) && !!documentId && !!token;

  if (!resolving && previewRefFromCookies(cookies.read(), repositoryName) === undefined) {
    emit({ type: "NOT_A_PREVIEW" });
    return "not-preview";
  }
  const nameError = repositoryNameError(repositoryName);
  if (nameError) {
    emit({ type: "FAILED", error: nameError });
    return "failed";
  }

  const clientFor = (ref: string) =>
    createPreviewClient({
      endpoint: options.endpoint ?? defaultEndpoint(repositoryName),
      ref,
      accessToken: accessTokenFromCookies(cookies.read(), repositoryName),
      fetch: options.fetch,
      signal,
    });

  if (resolving) {
    // The toolbar writes this cookie too; writing it here makes the resolved page a preview even
    // when the toolbar script has not run (blocked, or slower than our redirect).
    cookies.write(previewCookieFor(cookies.read(), repositoryName, token!, { secure: cookies.secure }));
    emit({ type: "START_RESOLVING" });
    let path: string;
    try {
      const document = await clientFor(token!).getByID(documentId!);
      path = options.resolvePath(document) ?? "/";
    } catch (error) {
      return failWith(error);
    }
    if (signal?.aborted) return "aborted";
    emit({ type: "RESOLVED", path });
    options.navigate(path);
    return "resolved";
  }

  const ref = previewRefFromCookies(cookies.read(), repositoryName)!;
  emit({ type: "START_BOOTSTRAPPING" });
  const client = clientFor(ref);
  try {
    if (options.bootstrap) await options.bootstrap(ref, client, signal ?? new AbortController().signal);
    else await client.search({ pageSize: "1" });
  } catch (error) {
    return failWith(error);
  }
  if (signal?.aborted) return "aborted";
  emit({ type: "BOOTSTRAPPED" });
  return "active";
}
