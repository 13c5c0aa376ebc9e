/**
 * Watch mode only (src/client/dev/README.md): turns the live page's body into the newly built one
 * in place, so that every element that is in both keeps its identity, and with it the focus, the
 * caret and what the visitor typed. A field's typed value is its property, not its attribute: the
 * attributes are brought up to date (a field the visitor has not touched shows the new default)
 * and the value typed is left alone.
 *
 * Children are matched by key (id, or an island's data-island-id) anywhere among the remaining
 * siblings, otherwise by position when the tag is the same; what has no match is added, what is
 * left over is removed. Elements `isOpaque` names (islands, which React owns) keep their contents.
 */

/** Classes the page's own scripts set at run time (src/client/picture-fade.ts): not the server's to remove. */
const RUNTIME_CLASSES = new Set(["nzf-pending", "nzf-loaded", "nzf-broken"]);
/** Attributes the page's own scripts set at run time on island containers (src/client/hydrate.ts, entries/page-scripts.ts). */
const RUNTIME_ATTRIBUTES = new Set(["data-hydrated", "data-used-early", "data-island-failed", "data-held-submit"]);

export interface MorphOptions {
  /** Elements whose contents belong to someone else: their attributes are brought up to date, their children left as they are. */
  isOpaque?: (live: Element) => boolean;
  /** Live nodes that are not the server's (watch mode's own overlay): never removed. */
  keep?: (live: Node) => boolean;
}

export interface MorphCount {
  added: number;
  removed: number;
  changed: number;
}

/** Morphs `live` (its attributes and children) into `next`, an element of another document (a DOMParser's). */
export function morphElement(live: Element, next: Element, options: MorphOptions = {}): MorphCount {
  const count: MorphCount = { added: 0, removed: 0, changed: 0 };
  morphNode(live, next, options, count);
  return count;
}

function keyOf(node: Node): string | null {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  return element.getAttribute("data-island-id") ?? (element.id || null);
}

function sameKind(a: Node, b: Node): boolean {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

function morphChildNodes(live: Element, next: Element, options: MorphOptions, count: MorphCount): void {
  const owner = live.ownerDocument;
  let cursor: ChildNode | null = live.firstChild;
  const skipKept = () => {
    while (cursor && options.keep?.(cursor)) cursor = cursor.nextSibling;
  };
  for (const wanted of [...next.childNodes]) {
    skipKept();
    const key = keyOf(wanted);
    let match: ChildNode | null = null;
    if (key !== null) {
      for (let c: ChildNode | null = cursor; c; c = c.nextSibling)
        if (keyOf(c) === key && sameKind(c, wanted)) {
          match = c;
          break;
        }
    } else if (cursor && sameKind(cursor, wanted) && keyOf(cursor) === null) match = cursor;
    if (match) {
      // Moved only when something came before it: moving an element takes the focus from it.
      if (match !== cursor) live.insertBefore(match, cursor);
      morphNode(match, wanted, options, count);
      cursor = match.nextSibling;
    } else {
      live.insertBefore(owner.importNode(wanted, true), cursor);
      count.added++;
    }
  }
  while (cursor) {
    const following: ChildNode | null = cursor.nextSibling;
    if (!options.keep?.(cursor)) {
      cursor.remove();
      count.removed++;
    }
    cursor = following;
  }
}

function morphNode(live: ChildNode, next: ChildNode, options: MorphOptions, count: MorphCount): void {
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== next.nodeValue) {
      live.nodeValue = next.nodeValue;
      count.changed++;
    }
    return;
  }
  const element = live as Element;
  if (syncAttributes(element, next as Element)) count.changed++;
  if (options.isOpaque?.(element)) return;
  morphChildNodes(element, next as Element, options, count);
}

/** Brings the attributes up to date; true when one changed. */
function syncAttributes(live: Element, next: Element): boolean {
  let changed = false;
  for (const { name, value } of [...next.attributes]) {
    const wanted = name === "class" ? withRuntimeClasses(value, live.getAttribute("class")) : value;
    if (live.getAttribute(name) !== wanted) {
      live.setAttribute(name, wanted);
      changed = true;
    }
  }
  for (const { name } of [...live.attributes]) {
    if (next.hasAttribute(name) || RUNTIME_ATTRIBUTES.has(name)) continue;
    if (name === "class" && withRuntimeClasses("", live.getAttribute("class")) !== "") {
      live.setAttribute("class", withRuntimeClasses("", live.getAttribute("class")));
      continue;
    }
    live.removeAttribute(name);
    changed = true;
  }
  return changed;
}

function withRuntimeClasses(server: string, live: string | null): string {
  const kept = (live ?? "").split(/\s+/).filter((c) => RUNTIME_CLASSES.has(c) && !server.split(/\s+/).includes(c));
  return kept.length ? [server, ...kept].filter(Boolean).join(" ") : server;
}
