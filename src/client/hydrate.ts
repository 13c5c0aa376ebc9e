/**
 * The islands protocol, browser side: find this island's server-rendered containers and hydrate each
 * with its props. Each container is its own root.
 *
 * In the browser bundles `react` and `react-dom/client` are preact/compat (src/render/island-bundle.ts):
 * Preact hydrates the markup React rendered on the server. Preact's hydrateRoot takes no options, so
 * the island's id prefix (the server's identifierPrefix) reaches the components through
 * IslandPrefixContext instead (see island-id.ts); the options below still apply if React is ever
 * bundled again. Bundled into every island entry, shared as one chunk.
 */
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { IslandPrefixContext } from "./island-id.js";

/** Runs `work` in a task of its own, so the page's main thread is never blocked for long at once. */
function inNextTask(work: () => void): void {
  setTimeout(work, 0);
}

export function hydrateIslands<P extends object>(name: string, component: ComponentType<P>): void {
  const containers = document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`);
  // Each island hydrates in its own task, after the task that evaluated its code: one long task
  // (evaluate, then hydrate everything) was most of /calculate/'s total blocking time in Lighthouse.
  for (const container of containers) inNextTask(() => hydrateOne(name, component, container));
}

function hydrateOne<P extends object>(name: string, component: ComponentType<P>, container: HTMLElement): void {
  const id = container.dataset.islandId!;
  const propsScript = document.querySelector<HTMLScriptElement>(`script[data-island-props="${id}"]`);
  const props = JSON.parse(propsScript?.textContent || "{}") as P;
  const prefix = `${id}-`;
  hydrateRoot(container, createElement(IslandPrefixContext.Provider, { value: prefix }, createElement(component, props)), {
    identifierPrefix: prefix,
    onRecoverableError(error) {
      // A mismatch means the server and browser rendered different markup: visible in the console for developers.
      console.warn(`Island "${name}" (${id}) recovered from an error:`, error);
    },
  });
  container.dataset.hydrated = "true";
}
