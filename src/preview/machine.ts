/**
 * The editor preview state machine (the Gatsby preview plugin's states and events), as a pure reducer so the
 * React island, the orchestration in src/preview-app/run-preview.ts and the tests share it.
 *
 * States (the `previewState` string values): idle, not-preview, bootstrapping, active, resolving,
 * resolved, prompt-for-access-token, failed.
 *
 * Legal transitions; any other (state, event) pair is ignored and the same state object is returned,
 * so a late answer from an aborted check cannot move the machine:
 *
 *   START_RESOLVING           idle → resolving
 *   RESOLVED(path)            resolving → resolved (resolvedPath = path)
 *   START_BOOTSTRAPPING       idle → bootstrapping
 *   BOOTSTRAPPED              bootstrapping → active
 *   FAILED(error)             idle | resolving | resolved | bootstrapping | active → failed
 *                             (idle: the start-up repository name check; not from failed, so the
 *                             first error stays on screen; not from not-preview or the prompt)
 *   NOT_A_PREVIEW             idle → not-preview
 *   PROMPT_FOR_ACCESS_TOKEN   resolving | bootstrapping → prompt-for-access-token
 *   GO_TO_IDLE                any state → idle (clears error and resolvedPath)
 */

export type PreviewStateName =
  | "idle"
  | "not-preview"
  | "bootstrapping"
  | "active"
  | "resolving"
  | "resolved"
  | "prompt-for-access-token"
  | "failed";

export interface PreviewState {
  activeRepositoryName: string;
  previewState: PreviewStateName;
  /** The message shown in the error dialog; null unless failed. */
  error: string | null;
  /** Where the resolver page navigates; null unless resolved. */
  resolvedPath: string | null;
}

export type PreviewEvent =
  | { type: "START_RESOLVING" }
  | { type: "RESOLVED"; path: string }
  | { type: "START_BOOTSTRAPPING" }
  | { type: "BOOTSTRAPPED" }
  | { type: "FAILED"; error: string }
  | { type: "NOT_A_PREVIEW" }
  | { type: "PROMPT_FOR_ACCESS_TOKEN" }
  | { type: "GO_TO_IDLE" };

export function initialPreviewState(repositoryName: string): PreviewState {
  return { activeRepositoryName: repositoryName, previewState: "idle", error: null, resolvedPath: null };
}

const FAILABLE: readonly PreviewStateName[] = ["idle", "resolving", "resolved", "bootstrapping", "active"];

export function previewReducer(state: PreviewState, event: PreviewEvent): PreviewState {
  const from = state.previewState;
  const to = (previewState: PreviewStateName, extra: Partial<PreviewState> = {}): PreviewState => ({
    ...state,
    previewState,
    error: null,
    resolvedPath: null,
    ...extra,
  });
  switch (event.type) {
    case "START_RESOLVING":
      return from === "idle" ? to("resolving") : state;
    case "RESOLVED":
      return from === "resolving" ? to("resolved", { resolvedPath: event.path }) : state;
    case "START_BOOTSTRAPPING":
      return from === "idle" ? to("bootstrapping") : state;
    case "BOOTSTRAPPED":
      return from === "bootstrapping" ? to("active") : state;
    case "FAILED":
      return FAILABLE.includes(from) ? to("failed", { error: event.error }) : state;
    case "NOT_A_PREVIEW":
      return from === "idle" ? to("not-preview") : state;
    case "PROMPT_FOR_ACCESS_TOKEN":
      return from === "resolving" || from === "bootstrapping" ? to("prompt-for-access-token") : state;
    case "GO_TO_IDLE":
      return to("idle");
    default:
      return state;
  }
}

/**
 * What the wrapped page receives as `isPrismicPreview`: null while idle (not known yet), true in
 * every state but not-preview, false in not-preview.
 */
export function isPrismicPreview(state: PreviewState): boolean | null {
  if (state.previewState === "idle") return null;
  return state.previewState !== "not-preview";
}
