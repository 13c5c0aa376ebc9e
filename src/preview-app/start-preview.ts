/**
 * Starts the editor preview on the current page (the preview bundle's whole job, see
 * src/preview-app/entry.ts):
 *
 * 1. reads the public configuration compiled into the bundle (src/preview/public-config.ts);
 * 2. mounts the preview island (PreviewRoot: machine, dialogs, resolver) in a container of its own;
 * 3. while bootstrapping, loads every document at the preview ref and re-renders the page with
 *    the build's templates (render-draft.ts), swapping it into place (swap-page.ts);
 * 4. loads the Prismic toolbar on the resolver page and once a preview is active.
 */
import type { PreviewClient } from "../preview/content-api.js";
import { parsePreviewConfig, type PreviewPublicConfig } from "../preview/public-config.js";
import { loadAllDocuments } from "./load-drafts.js";
import { mountPreview } from "./preview-root.js";
import { renderDraftPage } from "./render-draft.js";
import { PREVIEW_RESOLVER_PATH } from "./run-preview.js";
import { swapPageContent } from "./swap-page.js";

/** Prismic's toolbar: edit buttons, preview session switching and the "exit preview" control. */
export function toolbarUrl(repositoryName: string): string {
  return `https://static.cdn.prismic.io/prismic.js?new=true&repo=${encodeURIComponent(repositoryName)}`;
}

function embeddedConfig(): PreviewPublicConfig | null {
  try {
    // Replaced by esbuild with a string literal (bundlePreview previewEnv); unbundled, `process` is undefined.
    return parsePreviewConfig(process.env.NZF_PREVIEW_CONFIG);
  } catch {
    return null;
  }
}

function loadToolbar(doc: Document, repositoryName: string): void {
  if (doc.querySelector("script[data-prismic-toolbar]")) return;
  const script = doc.createElement("script");
  script.src = toolbarUrl(repositoryName);
  script.async = true;
  script.dataset.prismicToolbar = "";
  doc.head.append(script);
}

export const NO_PREVIEW_TEXT =
  "There is no preview to show. Open the preview again from Prismic with its Preview button.";
export const CANCELLED_TEXT = "The preview was cancelled. Open it again from Prismic with its Preview button, or ";

const isResolverPage = (pathname: string) => pathname.replace(/\/+$/, "") === PREVIEW_RESOLVER_PATH.replace(/\/+$/, "");

/** Runs once per page; returns a function that removes the preview island. */
export function startPreview(): () => void {
  const config = embeddedConfig();
  // The page as the server sent it, before the preview adds its container or the toolbar anything.
  let pageNodes: Node[] = [...document.body.childNodes];
  const container = document.createElement("div");
  container.id = "nzf-preview";
  document.body.append(container);

  const repositoryName = config?.repositoryName ?? "";
  const pathname = location.pathname;
  // The resolver page with a preview link's parameters (a bare /preview/ visit is nobody's preview).
  const params = new URLSearchParams(location.search);
  if (isResolverPage(pathname) && params.get("token") && params.get("documentId") && config)
    loadToolbar(document, repositoryName);

  const bootstrap = async (_ref: string, client: PreviewClient, signal: AbortSignal) => {
    const documents = await loadAllDocuments(client);
    const draft = renderDraftPage(documents, pathname, {
      siteUrl: config?.siteUrl ?? "",
      repository: repositoryName,
      public: config?.public ?? {},
    });
    // Cancelled while loading: the editor chose the published page.
    if (signal.aborted || !draft) return;
    pageNodes = swapPageContent(document, draft.html, pageNodes);
  };

  return mountPreview(container, {
    // An empty name fails the start-up check with 'An invalid repository name was given.'.
    repositoryName,
    endpoint: config?.endpoint,
    promptForAccessToken: config?.promptForAccessToken ?? true,
    bootstrap,
    onStateChange: (state) => {
      if (state.previewState === "active" && config) loadToolbar(document, repositoryName);
      // The resolver page says "Please wait…" until it navigates; opened without a preview link it
      // would wait forever, so say what to do instead.
      if (state.previewState === "not-preview" && isResolverPage(pathname)) {
        const slot = document.querySelector('[data-island-slot="preview"]');
        const text = document.createElement("p");
        text.textContent = NO_PREVIEW_TEXT;
        slot?.replaceChildren(text);
      }
    },
    // Cancel or Escape on the token prompt, the loading or the error dialog: the editor has the page
    // back. On the resolver page that page said "Please wait…", which nothing would end: say what
    // happened and offer the published site instead.
    onCancel: () => {
      if (!isResolverPage(pathname)) return;
      const slot = document.querySelector('[data-island-slot="preview"]');
      const text = document.createElement("p");
      const home = document.createElement("a");
      home.href = "/";
      home.textContent = "go to the home page";
      text.append(CANCELLED_TEXT, home, ".");
      slot?.replaceChildren(text);
    },
  });
}
