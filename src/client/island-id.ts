/**
 * Element ids that are the same in the server's markup and after hydration.
 *
 * The server renders each island with React (`renderToString`, identifierPrefix `i0-`, ...) and the
 * browser hydrates it with the same React and prefix (src/client/hydrate.ts). Islands build their
 * ids from the island's own prefix plus a name chosen by the component, never from `useId` alone:
 * the ids stay readable (`i0-field-email`, which tests can name) and do not
 * depend on where in the tree a component sits, so a component moved or wrapped keeps its ids:
 *
 * - in the browser, hydrate.ts provides the prefix (`i0-`) through IslandPrefixContext;
 * - on the server, React's `useId` (`_i0-R_5_`) carries the identifierPrefix the island was rendered
 *   with, right after its first character; that part is the prefix;
 * - with no prefix at all (component tests rendering with React alone), the whole `useId` value is
 *   the prefix, so two components in one test never share an id.
 *
 * Names must be unique within an island (a form's field names are).
 */
import { createContext, useContext, useId } from "react";

export const IslandPrefixContext = createContext<string | null>(null);

/** The island's prefix from a React `useId` value; "" when it was rendered without one. */
export function prefixOfReactId(reactId: string): string {
  // React 19.2+: `_` + prefix + `R_` + tree id + `_` (19.0 used `:…:`, 19.1 `«…»`); tree ids are lowercase base 32.
  const end = reactId.lastIndexOf("R");
  return end > 1 ? reactId.slice(1, end) : "";
}

/** The id prefix of the island this component is in, e.g. `i0-`. */
export function useIslandPrefix(): string {
  const provided = useContext(IslandPrefixContext);
  const reactId = useId(); // always called: hooks run in the same order on every render
  if (provided !== null) return provided;
  return prefixOfReactId(reactId) || `${reactId.replace(/[^\w-]/g, "")}-`;
}

/** An element id for `name` in this island, e.g. `i0-field-email`. */
export function useIslandId(name: string): string {
  return useIslandPrefix() + name;
}
