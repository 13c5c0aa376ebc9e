/**
 * The islands protocol, server side.
 *
 * A template marks an interactive part with `<Island name="faq-filter" component={FaqFilter} props={...} />`.
 * The page HTML then carries:
 *   <div class="nzf-island" data-island="faq-filter" data-island-id="i0">…server-rendered markup…</div>
 *   <script type="application/json" data-island-props="i0">…escaped JSON props…</script>
 * and the page loads only the bundles of the islands it contains (collected while rendering).
 *
 * Each island is rendered as its own React root with its own `identifierPrefix`, exactly as the
 * browser hydrates it, so `useId` values and markup match between server and client.
 */
import { createContext, createElement, useContext, type ComponentType, type ReactElement } from "react";
import { renderToString } from "react-dom/server";

export interface IslandCollector {
  /** Island names used on the page, in first-use order. */
  names: string[];
  count: number;
}

export const IslandCollectorContext = createContext<IslandCollector | null>(null);

export function createIslandCollector(): IslandCollector {
  return { names: [], count: 0 };
}

const UNSAFE_IN_SCRIPT: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * JSON for a `<script type="application/json">` element. `<`, `>` and `&` are escaped so no content
 * (for example a rich-text field containing `</script>`) can close the element or open a comment.
 */
export function serializeIslandProps(props: unknown): string {
  const json = JSON.stringify(props, (_key, value: unknown) => {
    if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
      throw new TypeError(`Island props must be plain JSON data; found a ${typeof value}`);
    }
    return value;
  });
  return (json ?? "null").replace(/[<>&\u2028\u2029]/g, (c) => UNSAFE_IN_SCRIPT[c]!);
}

export interface IslandProps<P> {
  /** The island's name: the file `src/client/islands/<name>.tsx` whose default export is `component`. */
  name: string;
  component: ComponentType<P>;
  props: P;
}

export function Island<P extends object>({ name, component, props }: IslandProps<P>): ReactElement {
  const collector = useContext(IslandCollectorContext);
  if (!collector) throw new Error(`<Island name="${name}"> rendered outside a page render`);
  const id = `i${collector.count++}`;
  if (!collector.names.includes(name)) collector.names.push(name);
  const markup = renderToString(createElement(component, props), { identifierPrefix: `${id}-` });
  return (
    <>
      <div className="nzf-island" data-island={name} data-island-id={id} dangerouslySetInnerHTML={{ __html: markup }} />
      <script
        type="application/json"
        data-island-props={id}
        dangerouslySetInnerHTML={{ __html: serializeIslandProps(props) }}
      />
    </>
  );
}
