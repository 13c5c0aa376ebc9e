/**
 * The islands protocol, browser side: find this island's server-rendered containers and hydrate each
 * with its props. Each container is its own root.
 *
 * In the browser bundles `react` and `react-dom/client` are preact/compat (src/render/island-bundle.ts):
 * Preact hydrates the markup React rendered on the server. Preact's hydrateRoot takes no options, so
 * the island's id prefix (the server's identifierPrefix) reaches the components through
 * IslandPrefixContext instead (see island-id.ts); the options below still apply if React is ever
 * bundled again. Bundled into every island entry, shared as one chunk.
 *
 * When to hydrate. An island module may export `hydrateNow(props)`. When it says false, the
 * server's markup already is what the island would show, so hydration waits until the visitor
 * first reaches into the island (focus, pointer, key, input): hydration is then a few milliseconds
 * inside that first event, not a long task while the page loads (it was most of /calculate/'s and
 * /pay/'s total blocking time in Lighthouse). Without the export, the island hydrates as soon as
 * its code has run. Islands reached into before their code arrived (page-scripts.ts starts the
 * code then) hydrate as soon as it has run.
 */
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandPrefixContext } from "./island-id.js";

export interface IslandModule<P> {
  default: ComponentType<P>;
  /** False when the server markup needs nothing from the browser until the visitor uses the island. */
  hydrateNow?: (props: P) => boolean;
}

/** The first sign that the visitor is reaching into an island. All of them bubble or are captured. */
const FIRST_USE = ["focusin", "pointerdown", "keydown", "input", "change"] as const;

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
  const hydrate = () => hydrateOne(name, island.default, container, id, props);
  // Reached into before its code arrived (src/client/entries/page-scripts.ts): the donor is using it now.
  if (!island.hydrateNow || container.dataset.usedEarly === "true" || island.hydrateNow(props)) return hydrate();
  container.dataset.hydrated = "on-first-use";
  const onFirstUse = () => {
    for (const type of FIRST_USE) container.removeEventListener(type, onFirstUse, true);
    hydrate();
  };
  // Capture, so hydration runs before the event reaches its target: the listeners hydration adds
  // to the target are called for this same event (the DOM reads a node's listeners on arrival).
  for (const type of FIRST_USE) container.addEventListener(type, onFirstUse, true);
}

function hydrateOne<P extends object>(name: string, component: ComponentType<P>, container: HTMLElement, id: string, props: P): void {
  const prefix = `${id}-`;
  hydrateRoot(container, createElement(IslandPrefixContext.Provider, { value: prefix }, createElement(component, props)), {
    identifierPrefix: prefix,
    onRecoverableError(error) {
      // A mismatch means the server and browser rendered different markup: visible in the console for developers.
      console.warn(`Island "${name}" (${id}) recovered from an error:`, error);
    },
  });
  container.dataset.hydrated = "true";
  takeOverTypedValues(container);
}

/**
 * Values the browser put into the island's fields before hydration (typed before the code arrived,
 * restored by the browser on a return to the page, filled in by autofill) are not in the island's
 * state: Preact hydrates without reading them, and its next render would write the state's value
 * over them. Announcing each changed field as the visitor's own input hands it to the island, so
 * nothing typed is lost.
 */
export function takeOverTypedValues(container: HTMLElement): void {
  for (const field of container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>("input, textarea, select")) {
    if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((o) => o.selected !== o.defaultSelected)) field.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      // A radio group changes through the one now checked; the one unchecked by it needs no event.
      if (field.checked !== field.defaultChecked && (field.checked || field.type === "checkbox")) field.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (field.value !== field.defaultValue) {
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}
