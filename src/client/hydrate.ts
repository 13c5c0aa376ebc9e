/**
 * The islands protocol, browser side: find this island's server-rendered containers and hydrate each
 * with its props, with React 19's `hydrateRoot`, the same React that rendered the markup on the
 * server. Each container is its own root with the server's identifierPrefix (`i0-`), and the
 * island's id prefix also reaches the components through IslandPrefixContext (see island-id.ts).
 * Bundled into every island entry: with React, one shared chunk (src/bundle/island-bundle.ts).
 *
 * When to hydrate. An island module may export `hydrateNow(props)`. When it says false, the
 * server's markup already is what the island would show, so hydration waits until the visitor
 * first reaches into the island (focus, pointer, key, input): hydration then runs synchronously
 * inside that first event (flushSync), so React's listeners handle that same event, and is not a
 * task while the page loads (it was most of /calculate/'s and /pay/'s total blocking time in
 * Lighthouse). Without the export, the island hydrates as soon as its code has run, as a
 * transition: React then hydrates in slices of a few milliseconds, yielding to the browser between
 * them, instead of one long task on a slow phone; a visitor's click or key meanwhile makes React
 * hydrate at once. Islands reached into before their code arrived (page-scripts.ts starts the code
 * then), and islands whose fields the browser filled in before then (autofill, a restored form),
 * hydrate at once when it has run.
 *
 * Errors. A hydration mismatch (the browser's first render differs from the server's HTML) and any
 * error React recovers from are logged with console.error and the island's name, in every build: the
 * browser tests fail on any console error (test/support/browser.ts), so a mismatch fails them.
 */
import { createElement, startTransition, useLayoutEffect, type ComponentType, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { hydrateRoot, type ErrorInfo } from "react-dom/client";
import { IslandPrefixContext } from "./island-id.js";

export interface IslandModule<P> {
  default: ComponentType<P>;
  /** False when the server markup needs nothing from the browser until the visitor uses the island. */
  hydrateNow?: (props: P) => boolean;
}

/**
 * The first sign that the visitor is reaching into an island. All of them bubble or are captured.
 * "submit" too: assistive technology may activate a button with a click and no pointer or key event.
 */
const FIRST_USE = ["focusin", "pointerdown", "keydown", "input", "change", "submit"] as const;

/** Runs `work` in a task of its own, so the page's main thread is never blocked for long at once. */
function inNextTask(work: () => void): void {
  setTimeout(work, 0);
}

export function hydrateIslands<P extends object>(name: string, island: IslandModule<P>): void {
  const containers = document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`);
  // Each island starts in its own task, after the task that evaluated its code.
  for (const container of containers) inNextTask(() => startIsland(name, island, container));
}

function startIsland<P extends object>(name: string, island: IslandModule<P>, container: HTMLElement): void {
  const id = container.dataset.islandId!;
  const propsScript = document.querySelector<HTMLScriptElement>(`script[data-island-props="${id}"]`);
  const props = JSON.parse(propsScript?.textContent || "{}") as P;
  // Reached into before its code arrived (src/client/entries/page-scripts.ts): the donor is using it now.
  if (container.dataset.usedEarly === "true") return hydrateIsland(name, island.default, container, props, "now");
  if (!island.hydrateNow || island.hydrateNow(props))
    return hydrateIsland(name, island.default, container, props, "in-slices");
  // Filled in before the page's scripts ran (autofill, a paste, the browser restoring a form): the
  // fields already differ from the server's markup, so waiting for a next use would show a stale total.
  if (hasTypedValues(container)) return hydrateIsland(name, island.default, container, props, "now");
  container.dataset.hydrated = "on-first-use";
  const onFirstUse = () => {
    for (const type of FIRST_USE) container.removeEventListener(type, onFirstUse, true);
    hydrateIsland(name, island.default, container, props, "now");
  };
  // Capture, so hydration runs before the event reaches its target and React's own listeners (on
  // the container, added by hydrateRoot) receive this same event on its way back up.
  for (const type of FIRST_USE) container.addEventListener(type, onFirstUse, true);
}

/** What React reports while hydrating an island, with the island's name so a developer can find it. */
function reporter(kind: string, name: string, id: string) {
  return (error: unknown, info?: ErrorInfo) => {
    console.error(`Island "${name}" (${id}): ${kind}.`, error, info?.componentStack ?? "");
  };
}

/** Marks the container hydrated once React has committed the hydrated tree, then hands it what the browser typed. */
function Hydrated({ container, children }: { container: HTMLElement; children?: ReactNode }) {
  useLayoutEffect(() => {
    container.dataset.hydrated = "true";
    // After React's commit has finished (events dispatched now reach a fully hydrated island).
    queueMicrotask(() => takeOverTypedValues(container));
    // After React has rendered what was typed: the submit then sees the donor's values.
    setTimeout(() => submitHeld(container), 0);
  }, [container]);
  return children;
}

/**
 * A submit the page held back while the island was not hydrated yet (src/client/entries/page-scripts.ts)
 * was the visitor's: send it now, through the island, from the button that made it.
 */
function submitHeld(container: HTMLElement): void {
  const held = container.querySelector<HTMLElement>("[data-held-submit]");
  if (!held) return;
  held.removeAttribute("data-held-submit");
  if (held instanceof HTMLFormElement) held.requestSubmit();
  else (held as HTMLButtonElement).form?.requestSubmit(held as HTMLButtonElement);
}

/**
 * Hydrates one island: `now` synchronously (the visitor is using it), `in-slices` as a transition
 * that yields to the browser every few milliseconds. Exported: test/client/hydrate.test.tsx drives it.
 */
export function hydrateIsland<P extends object>(
  name: string,
  component: ComponentType<P>,
  container: HTMLElement,
  props: P,
  when: "now" | "in-slices",
): void {
  const id = container.dataset.islandId ?? "";
  const prefix = `${id}-`;
  const tree = createElement(
    Hydrated,
    { container },
    createElement(IslandPrefixContext.Provider, { value: prefix }, createElement(component, props)),
  );
  const hydrate = () => {
    hydrateRoot(container, tree, {
      identifierPrefix: prefix,
      // A mismatch: the server and the browser rendered different markup, and React rendered the island again in the browser.
      onRecoverableError: reporter(
        "the server's HTML and the browser's first render differ, or hydration hit an error React recovered from",
        name,
        id,
      ),
      onCaughtError: reporter("an error boundary caught an error", name, id),
      onUncaughtError: reporter("an error stopped the island, which React has removed; reload the page", name, id),
    });
  };
  if (when === "now") flushSync(hydrate);
  else startTransition(hydrate);
}

/** Sets a text field's value through the DOM's own setter, past the property React watches on the element. */
function setValueUnseen(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")!.set!.call(field, value);
}

/**
 * Values the browser put into the island's fields before hydration (typed before the code arrived,
 * restored by the browser on a return to the page, filled in by autofill) are not in the island's
 * state, and React's next render would write the state's value over them. React only reports a
 * field's change when its value differs from the one it last saw, and hydration took the typed value
 * as seen. So each changed field is put back to the server's value through the field's own
 * property (which React watches), given the typed value through the DOM's setter (which it does
 * not), and announced as the visitor's input: the island's onChange receives it, nothing typed is
 * lost. Every changed value is read before any is announced: the render that follows one
 * announcement writes the state's values into the fields not yet announced.
 */
export function takeOverTypedValues(container: HTMLElement): void {
  const changes: (() => void)[] = [];
  for (const field of fieldsOf(container)) {
    if (!isTyped(field)) continue;
    if (field instanceof HTMLSelectElement) {
      const selected = [...field.options].map((o) => o.selected);
      // React reports a select's every change event, whatever it saw before.
      changes.push(() => {
        [...field.options].forEach((o, i) => (o.selected = selected[i]!));
        field.dispatchEvent(new Event("change", { bubbles: true }));
      });
    } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      // A radio group changes through the one now checked; the one unchecked by it needs no event.
      if (!field.checked && field.type === "radio") continue;
      const checked = field.checked;
      // Set against the typed state, then a click, as the visitor's: the browser sets it as it was typed and React reports it.
      changes.push(() => {
        field.checked = !checked;
        field.click();
      });
    } else {
      const typed = field.value;
      changes.push(() => {
        field.value = field.defaultValue;
        setValueUnseen(field, typed);
        field.dispatchEvent(new Event("input", { bubbles: true }));
      });
    }
  }
  for (const change of changes) change();
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function fieldsOf(container: HTMLElement): NodeListOf<Field> {
  return container.querySelectorAll<Field>("input, textarea, select");
}

/** Whether the browser changed this field from the server's markup (its default value, check or selection). */
function isTyped(field: Field): boolean {
  if (field instanceof HTMLSelectElement) return [...field.options].some((o) => o.selected !== o.defaultSelected);
  if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio"))
    return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

function hasTypedValues(container: HTMLElement): boolean {
  return [...fieldsOf(container)].some(isTyped);
}
