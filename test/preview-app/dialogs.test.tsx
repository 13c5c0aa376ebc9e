// @vitest-environment happy-dom
import { act, useReducer } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  initialPreviewState,
  previewReducer,
  type PreviewEvent,
  type PreviewState,
} from "../../src/preview/machine.js";
import { AccessTokenDialog, ErrorDialog, LoadingDialog, PreviewDialogs } from "../../src/preview-app/dialogs.js";

// vitest.config.ts sets NODE_ENV=production for every file; React's production build has no
// `act` and no jsxDEV, so component tests load the development build (before any import runs).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLElement;
let root: Root;
let opener: HTMLButtonElement;

beforeEach(() => {
  document.body.innerHTML = "";
  opener = document.createElement("button");
  opener.textContent = "page button";
  document.body.append(opener);
  opener.focus();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
});

function render(node: React.ReactNode) {
  act(() => root.render(node));
}
function dialog(): HTMLDialogElement {
  const found = document.querySelector("dialog");
  if (!found) throw new Error("no dialog rendered");
  return found;
}
function byId(id: string | null): HTMLElement {
  return document.getElementById(id ?? "")!;
}
function buttons(): string[] {
  return [...dialog().querySelectorAll("button")].map((b) => b.textContent ?? "");
}
function press(key: string, shiftKey = false) {
  act(() => {
    (document.activeElement ?? document.body).dispatchEvent(
      new KeyboardEvent("keydown", { key, shiftKey, bubbles: true, cancelable: true }),
    );
  });
}

describe("LoadingDialog", () => {
  it("has its title, text and button, and is labelled by them", () => {
    const onCancel = vi.fn();
    render(<LoadingDialog onCancel={onCancel} />);
    expect(dialog().open).toBe(true);
    expect(byId(dialog().getAttribute("aria-labelledby")).textContent).toBe("Fetching preview");
    expect(byId(dialog().getAttribute("aria-describedby")).textContent).toBe(
      "Please wait while your updates are loading…",
    );
    expect(buttons()).toEqual(["Cancel Preview"]);
    act(() => dialog().querySelector("button")!.click());
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});

describe("AccessTokenDialog", () => {
  it("has its texts, repository, field, link and buttons", () => {
    render(<AccessTokenDialog repositoryName="nzf2020" incorrect={false} onCancel={() => {}} onSubmit={() => {}} />);
    expect(byId(dialog().getAttribute("aria-labelledby")).textContent).toBe("Enter your access token");
    expect(byId(dialog().getAttribute("aria-describedby")).textContent).toBe(
      "An access token is required to view this preview.",
    );
    expect(dialog().textContent).toContain("nzf2020");
    const inputs = dialog().querySelectorAll("input");
    expect(inputs).toHaveLength(1);
    const input = inputs[0]!;
    expect(input.name).toBe("access-token");
    expect(input.placeholder).toBe("your-access-token");
    expect(input.required).toBe(true);
    expect(input.type).toBe("text");
    expect(document.querySelector(`label[for="${input.id}"]`)).not.toBeNull();
    const link = dialog().querySelector("a")!;
    expect(link.textContent).toBe("Learn about generating one here.");
    expect(link.href).toBe("https://user-guides.prismic.io/en/articles/1036153-generating-an-access-token");
    expect(buttons()).toEqual(["Cancel", "Continue"]);
  });

  it("shows no 'Incorrect token' when no token is stored", () => {
    render(<AccessTokenDialog repositoryName="nzf2020" incorrect={false} onCancel={() => {}} onSubmit={() => {}} />);
    const input = dialog().querySelector("input")!;
    expect(dialog().textContent).not.toContain("Incorrect token");
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(input.classList.contains("nzf-dialog__input--incorrect")).toBe(false);
  });

  it("marks the field incorrect, with text tied to it, when a token is stored", () => {
    render(<AccessTokenDialog repositoryName="nzf2020" incorrect onCancel={() => {}} onSubmit={() => {}} />);
    const input = dialog().querySelector("input")!;
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(byId(input.getAttribute("aria-describedby")).textContent).toBe("Incorrect token");
    expect(input.classList.contains("nzf-dialog__input--incorrect")).toBe(true);
  });

  it("submits the trimmed token with Continue, and not an empty one", () => {
    const onSubmit = vi.fn();
    render(<AccessTokenDialog repositoryName="nzf2020" incorrect={false} onCancel={() => {}} onSubmit={onSubmit} />);
    const form = dialog().querySelector("form")!;
    act(() => form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true })));
    expect(onSubmit).not.toHaveBeenCalled();
    const input = dialog().querySelector("input")!;
    act(() => {
      // React tracks the value through the native setter; set it the way a keystroke would.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "  MC5token  ");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    act(() => [...dialog().querySelectorAll("button")].find((b) => b.textContent === "Continue")!.click());
    expect(onSubmit).toHaveBeenCalledWith("MC5token");
  });
});

describe("ErrorDialog", () => {
  it("has the title, generic text, the message, the button and the footer", () => {
    render(<ErrorDialog repositoryName="nzf2020" error="Unauthorized access" onCancel={() => {}} />);
    expect(byId(dialog().getAttribute("aria-labelledby")).textContent).toBe("Error");
    const described = dialog()
      .getAttribute("aria-describedby")!
      .split(" ")
      .map((id) => byId(id).textContent);
    expect(described).toEqual(["The preview could not be loaded.", "Unauthorized access"]);
    expect(buttons()).toEqual(["Cancel Preview"]);
    const footer = dialog().querySelector("footer")!;
    expect(footer.textContent).toContain("nzf2020");
    expect(footer.textContent).toContain("5.3.1");
  });

  it("shows only the generic text when there is no message", () => {
    render(<ErrorDialog repositoryName="nzf2020" error={null} onCancel={() => {}} />);
    expect(dialog().querySelectorAll("p")).toHaveLength(1);
    expect(dialog().querySelector("p")!.textContent).toBe("The preview could not be loaded.");
  });
});

/** The dialogs driven by the real reducer, as the island uses them. */
function Harness({
  start,
  hasStoredToken = false,
  onEvent,
}: {
  start: PreviewState;
  hasStoredToken?: boolean;
  onEvent?: (e: PreviewEvent) => void;
}) {
  const [state, dispatch] = useReducer(previewReducer, start);
  const send = (event: PreviewEvent) => {
    onEvent?.(event);
    dispatch(event);
  };
  return (
    <>
      <output data-testid="state">{state.previewState}</output>
      <PreviewDialogs
        state={state}
        hasStoredToken={hasStoredToken}
        onCancel={() => send({ type: "GO_TO_IDLE" })}
        onSubmitToken={() => send({ type: "GO_TO_IDLE" })}
      />
    </>
  );
}
const stateText = () => document.querySelector("output")!.textContent;
const at = (previewState: PreviewState["previewState"], error: string | null = null): PreviewState => ({
  ...initialPreviewState("nzf2020"),
  previewState,
  error,
});

describe("PreviewDialogs", () => {
  it("shows the right dialog for each state and none otherwise", () => {
    const title = () => {
      const d = document.querySelector("dialog");
      return d ? byId(d.getAttribute("aria-labelledby")).textContent : null;
    };
    const cases: [PreviewState["previewState"], string | null][] = [
      ["idle", null],
      ["not-preview", null],
      ["active", null],
      ["resolved", null],
      ["bootstrapping", "Fetching preview"],
      ["resolving", "Fetching preview"],
      ["prompt-for-access-token", "Enter your access token"],
      ["failed", "Error"],
    ];
    for (const [state, expected] of cases) {
      render(
        <PreviewDialogs state={at(state, "x")} hasStoredToken={false} onCancel={() => {}} onSubmitToken={() => {}} />,
      );
      expect(title(), state).toBe(expected);
      expect(document.querySelectorAll("dialog").length, state).toBe(expected ? 1 : 0);
    }
  });

  it("moves focus into the dialog, and back to the page button when Escape dismisses it", () => {
    expect(document.activeElement).toBe(opener);
    render(<Harness start={at("prompt-for-access-token")} />);
    expect(dialog().contains(document.activeElement)).toBe(true);
    expect((document.activeElement as HTMLInputElement).name).toBe("access-token");
    press("Escape");
    expect(stateText()).toBe("idle");
    expect(document.querySelector("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("dismisses on the dialog's cancel event too (the browser's close request)", () => {
    render(<Harness start={at("failed", "Unauthorized access")} />);
    act(() => {
      dialog().dispatchEvent(new Event("cancel", { cancelable: true }));
    });
    expect(stateText()).toBe("idle");
    expect(document.activeElement).toBe(opener);
  });

  it("returns to idle with each Cancel button", () => {
    for (const [state, label] of [
      ["bootstrapping", "Cancel Preview"],
      ["prompt-for-access-token", "Cancel"],
      ["failed", "Cancel Preview"],
    ] as const) {
      act(() => root.unmount());
      root = createRoot(container);
      render(<Harness start={at(state)} />);
      act(() => [...dialog().querySelectorAll("button")].find((b) => b.textContent === label)!.click());
      expect(stateText(), state).toBe("idle");
    }
  });

  it("traps Tab and Shift+Tab inside the dialog", () => {
    render(<Harness start={at("prompt-for-access-token")} />);
    const focusables = [
      dialog().querySelector("input")!,
      dialog().querySelector("a")!,
      ...dialog().querySelectorAll("button"),
    ];
    const last = focusables[focusables.length - 1]!;
    expect(last.textContent).toBe("Continue");
    last.focus();
    press("Tab");
    expect(document.activeElement).toBe(focusables[0]);
    press("Tab", true);
    expect(document.activeElement).toBe(last);
  });

  it("pulls focus back when it lands outside the dialog", () => {
    render(<Harness start={at("failed", "boom")} />);
    act(() => opener.focus());
    expect(dialog().contains(document.activeElement)).toBe(true);
  });
});
