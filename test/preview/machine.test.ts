import { describe, expect, it } from "vitest";
import {
  initialPreviewState,
  isPrismicPreview,
  previewReducer,
  type PreviewEvent,
  type PreviewState,
  type PreviewStateName,
} from "../../src/preview/machine.js";

const ALL_STATES: PreviewStateName[] = [
  "idle",
  "not-preview",
  "bootstrapping",
  "active",
  "resolving",
  "resolved",
  "prompt-for-access-token",
  "failed",
];

const EVENTS: Record<PreviewEvent["type"], PreviewEvent> = {
  START_RESOLVING: { type: "START_RESOLVING" },
  RESOLVED: { type: "RESOLVED", path: "/blog/eid/" },
  START_BOOTSTRAPPING: { type: "START_BOOTSTRAPPING" },
  BOOTSTRAPPED: { type: "BOOTSTRAPPED" },
  FAILED: { type: "FAILED", error: "Unauthorized access" },
  NOT_A_PREVIEW: { type: "NOT_A_PREVIEW" },
  PROMPT_FOR_ACCESS_TOKEN: { type: "PROMPT_FOR_ACCESS_TOKEN" },
  GO_TO_IDLE: { type: "GO_TO_IDLE" },
};

// The legal transitions, written out by hand from the preview plugin's states and events. Every pair not
// listed here must leave the state unchanged.
const LEGAL: Record<string, PreviewStateName> = {
  "idle START_RESOLVING": "resolving",
  "resolving RESOLVED": "resolved",
  "idle START_BOOTSTRAPPING": "bootstrapping",
  "bootstrapping BOOTSTRAPPED": "active",
  "idle FAILED": "failed",
  "resolving FAILED": "failed",
  "resolved FAILED": "failed",
  "bootstrapping FAILED": "failed",
  "active FAILED": "failed",
  "idle NOT_A_PREVIEW": "not-preview",
  "resolving PROMPT_FOR_ACCESS_TOKEN": "prompt-for-access-token",
  "bootstrapping PROMPT_FOR_ACCESS_TOKEN": "prompt-for-access-token",
  ...Object.fromEntries(ALL_STATES.map((s) => [`${s} GO_TO_IDLE`, "idle"])),
};

function inState(previewState: PreviewStateName): PreviewState {
  return {
    activeRepositoryName: "nzf2020",
    previewState,
    error: previewState === "failed" ? "earlier error" : null,
    resolvedPath: previewState === "resolved" ? "/earlier/" : null,
  };
}

describe("previewReducer", () => {
  it("starts idle with the repository name and nothing else", () => {
    expect(initialPreviewState("nzf2020")).toEqual({
      activeRepositoryName: "nzf2020",
      previewState: "idle",
      error: null,
      resolvedPath: null,
    });
  });

  for (const from of ALL_STATES) {
    for (const [type, event] of Object.entries(EVENTS)) {
      const target = LEGAL[`${from} ${type}`];
      it(`${from} + ${type} → ${target ?? "(ignored)"}`, () => {
        const before = inState(from);
        const after = previewReducer(before, event);
        if (target === undefined) {
          expect(after).toBe(before);
        } else {
          expect(after.previewState).toBe(target);
          expect(after.activeRepositoryName).toBe("nzf2020");
        }
      });
    }
  }

  it("keeps the resolved path with RESOLVED and the error with FAILED", () => {
    const resolved = previewReducer(inState("resolving"), { type: "RESOLVED", path: "/case/amina/" });
    expect(resolved).toMatchObject({ previewState: "resolved", resolvedPath: "/case/amina/", error: null });
    const failed = previewReducer(inState("bootstrapping"), { type: "FAILED", error: "Unauthorized access" });
    expect(failed).toMatchObject({ previewState: "failed", error: "Unauthorized access", resolvedPath: null });
  });

  it("clears error and resolved path when going back to idle", () => {
    expect(previewReducer(inState("failed"), { type: "GO_TO_IDLE" })).toEqual(initialPreviewState("nzf2020"));
    expect(previewReducer(inState("resolved"), { type: "GO_TO_IDLE" })).toEqual(initialPreviewState("nzf2020"));
  });

  it("keeps the first error when a second failure arrives", () => {
    const failed = previewReducer(inState("failed"), { type: "FAILED", error: "second" });
    expect(failed.error).toBe("earlier error");
  });
});

describe("isPrismicPreview", () => {
  const expected: Record<PreviewStateName, boolean | null> = {
    idle: null,
    "not-preview": false,
    bootstrapping: true,
    active: true,
    resolving: true,
    resolved: true,
    "prompt-for-access-token": true,
    failed: true,
  };
  for (const state of ALL_STATES) {
    it(`is ${String(expected[state])} in ${state}`, () => {
      expect(isPrismicPreview(inState(state))).toBe(expected[state]);
    });
  }
});
