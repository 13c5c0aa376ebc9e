/**
 * The islands protocol, browser side: find this island's server-rendered containers and hydrate each
 * with its props. Each container is its own root with the same identifierPrefix the server used.
 * Bundled into every island entry (see src/render/island-bundle.ts), shared as one chunk.
 */
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";

export function hydrateIslands<P extends object>(name: string, component: ComponentType<P>): void {
  const containers = document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`);
  for (const container of containers) {
    const id = container.dataset.islandId!;
    const propsScript = document.querySelector<HTMLScriptElement>(`script[data-island-props="${id}"]`);
    const props = JSON.parse(propsScript?.textContent || "{}") as P;
    hydrateRoot(container, createElement(component, props), {
      identifierPrefix: `${id}-`,
      onRecoverableError(error) {
        // A mismatch means the server and browser rendered different markup: visible in the console for developers.
        console.warn(`Island "${name}" (${id}) recovered from an error:`, error);
      },
    });
    container.dataset.hydrated = "true";
  }
}
