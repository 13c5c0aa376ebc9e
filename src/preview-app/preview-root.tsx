/**
 * The preview island: holds the machine, runs the check when mounted (and again after a token is
 * submitted), and shows the dialogs. Pages render it once; it renders nothing for visitors who are
 * not previewing. It runs on the browser's own pieces: fetch, location, navigation and cookies.
 */

import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { pathForDocument } from "../content/routes.js";
import type { PreviewClient } from "../preview/content-api.js";
import { accessTokenCookie, accessTokenFromCookies, documentCookieJar, type CookieJar } from "../preview/cookies.js";
import { initialPreviewState, isPrismicPreview, previewReducer, type PreviewState } from "../preview/machine.js";
import { PreviewDialogs } from "./dialogs.js";
import { runPreview } from "./run-preview.js";

export interface PreviewRootProps {
  repositoryName: string;
  endpoint?: string;
  promptForAccessToken?: boolean;
  /** Loads the drafts and re-renders the page while bootstrapping (see run-preview.ts). */
  bootstrap?: (ref: string, client: PreviewClient, signal: AbortSignal) => Promise<void>;
  /** Every state change, with the page-facing `isPrismicPreview`. */
  onStateChange?: (state: PreviewState, isPrismicPreview: boolean | null) => void;
  /** The editor closed a dialog (Cancel, Escape): the preview stopped and the page is theirs again. */
  onCancel?: () => void;
}

export function PreviewRoot(props: PreviewRootProps) {
  const [state, dispatch] = useReducer(previewReducer, props.repositoryName, initialPreviewState);
  // Bumped to run the check again (after a token is submitted).
  const [run, setRun] = useState(0);
  const current = useRef<AbortController | null>(null);
  const propsRef = useRef(props);
  propsRef.current = props;
  const cookies = useRef<CookieJar | null>(null);
  const jar = () => (cookies.current ??= documentCookieJar());

  useEffect(() => {
    const p = propsRef.current;
    const controller = new AbortController();
    current.current = controller;
    void runPreview({
      repositoryName: p.repositoryName,
      endpoint: p.endpoint,
      promptForAccessToken: p.promptForAccessToken,
      bootstrap: p.bootstrap,
      fetch: (input, init) => globalThis.fetch(input, init),
      location: window.location,
      navigate: (path) => window.location.assign(path),
      cookies: jar(),
      resolvePath: pathForDocument,
      dispatch,
      signal: controller.signal,
    });
    return () => controller.abort();
  }, [run]);

  useEffect(() => {
    propsRef.current.onStateChange?.(state, isPrismicPreview(state));
  }, [state]);

  const cancel = useCallback(() => {
    current.current?.abort();
    dispatch({ type: "GO_TO_IDLE" });
    propsRef.current.onCancel?.();
  }, []);

  const submitToken = useCallback((token: string) => {
    const cookieJar = jar();
    cookieJar.write(accessTokenCookie(propsRef.current.repositoryName, token, { secure: cookieJar.secure }));
    dispatch({ type: "GO_TO_IDLE" });
    setRun((n) => n + 1);
  }, []);

  const hasStoredToken =
    state.previewState === "prompt-for-access-token" &&
    accessTokenFromCookies(jar().read(), state.activeRepositoryName) !== undefined;
  return <PreviewDialogs state={state} hasStoredToken={hasStoredToken} onCancel={cancel} onSubmitToken={submitToken} />;
}

/** Mounts the preview island into `container`; returns a function that unmounts it. */
export function mountPreview(container: Element, props: PreviewRootProps): () => void {
  const root = createRoot(container);
  root.render(<PreviewRoot {...props} />);
  return () => root.unmount();
}

/**
 * Islands convention (src/client/islands/*): a default-exported component whose props are JSON.
 * Only repositoryName, endpoint and promptForAccessToken come from the page; the
 * rest is the browser's. Server-rendered it is empty (idle shows no dialog), and it touches
 * `document` only in effects, so renderToString is safe.
 */
export default PreviewRoot;
