/**
 * Puts a freshly rendered page in place of the one the server sent, in the live document.
 *
 * Only the nodes the server rendered are replaced (recorded before the preview added anything), so
 * the preview dialogs and the Prismic toolbar stay. Islands that are already hydrated, or waiting
 * for the visitor's first use (src/client/hydrate.ts), are moved into the new content as they are:
 * they keep working (their roots, or the listeners that will hydrate them, live on those elements)
 * but keep their published props. That is the one thing a draft cannot change in place; the page
 * around them shows the draft.
 */

/**
 * The parsed document has scripting off, so its `<noscript>` holds real elements (the tag manager's
 * iframe, for example). In the live page, where scripting is on, that content is text; make it so,
 * or the iframe would load.
 */
function inertNoscript(parsed: Document): void {
  for (const noscript of parsed.querySelectorAll("noscript"))
    noscript.replaceChildren(parsed.createTextNode(noscript.innerHTML));
}

/** Replaces `current` (nodes of `doc.body`) with the body of `html`; returns the nodes now in their place. */
export function swapPageContent(doc: Document, html: string, current: readonly Node[]): Node[] {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  inertNoscript(parsed);
  // Script elements from DOMParser are marked never to run; importing keeps that (the body only
  // holds JSON island props anyway).
  const fragment = doc.createDocumentFragment();
  for (const node of [...parsed.body.childNodes]) fragment.append(doc.importNode(node, true));

  for (const island of fragment.querySelectorAll<HTMLElement>("[data-island][data-island-id]")) {
    const selector = `[data-island="${CSS.escape(island.dataset.island!)}"][data-island-id="${CSS.escape(island.dataset.islandId!)}"]`;
    const live = current
      .map((n) => (n instanceof Element ? (n.matches(selector) ? n : n.querySelector(selector)) : null))
      .find(Boolean) as HTMLElement | undefined;
    // "true" or "on-first-use": either way the island's code has taken the element.
    if (live?.dataset.hydrated) island.replaceWith(live);
  }

  const added = [...fragment.childNodes];
  const anchor = current.find((n) => n.parentNode === doc.body) ?? null;
  doc.body.insertBefore(fragment, anchor);
  for (const node of current) if (node.parentNode === doc.body) doc.body.removeChild(node);
  if (parsed.title) doc.title = parsed.title;
  return added;
}
