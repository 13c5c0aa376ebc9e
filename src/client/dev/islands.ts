/**
 * Watch mode only: an island whose code or props changed in a rebuild is mounted again on its own,
 * the rest of the page staying as it is. Its container is replaced by the new server markup, with
 * what the visitor typed into its fields copied across; the island's new module then hydrates it,
 * and src/client/hydrate.ts hands those typed values to the island's state (as it does for values a
 * browser restores), so a half-filled form survives an edit of its island.
 */

/** An island container of the live page and its counterpart in the new one. */
export interface IslandChange {
  name: string;
  live: HTMLElement;
  next: HTMLElement;
  /** The island's module in the new page. */
  module: string;
}

const PAGE_SCRIPT = "script[data-page-modules]";

/** The page script's address: a change there is not something a page can take in place. */
export function pageScriptOf(doc: Document): string | null {
  return doc.querySelector<HTMLScriptElement>(PAGE_SCRIPT)?.getAttribute("src") ?? null;
}

/** The module of the island `name` among the page's modules (`/_islands/<name>-<hash>.js`). */
function moduleOf(doc: Document, name: string): string | null {
  const modules = (doc.querySelector<HTMLScriptElement>(PAGE_SCRIPT)?.dataset.pageModules ?? "").split(" ");
  const prefix = `/_islands/${name}-`;
  return modules.find((m) => m.startsWith(prefix) && !m.slice(prefix.length).includes("/")) ?? null;
}

function propsOf(doc: Document, id: string): string | null {
  return doc.querySelector(`script[data-island-props="${CSS.escape(id)}"]`)?.textContent ?? null;
}

/** Islands of the live page whose module or props differ in `next`, and islands only `next` has. Read before the page is morphed. */
export function changedIslands(next: Document): IslandChange[] {
  const changes: IslandChange[] = [];
  for (const wanted of next.querySelectorAll<HTMLElement>("[data-island]")) {
    const name = wanted.dataset.island!;
    const id = wanted.dataset.islandId ?? "";
    const module = moduleOf(next, name);
    if (!module) continue;
    const live = document.querySelector<HTMLElement>(`[data-island-id="${CSS.escape(id)}"]`);
    const same =
      live?.dataset.island === name &&
      moduleOf(document, name) === module &&
      propsOf(document, id) === propsOf(next, id);
    if (!same) changes.push({ name, live: live ?? wanted, next: wanted, module });
  }
  return changes;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** How a field is found again in the new markup: its id, or its name (and value, for a radio button). */
function fieldKey(field: Element): string | null {
  if (field.id) return `#${field.id}`;
  const name = field.getAttribute("name");
  if (!name) return null;
  return field instanceof HTMLInputElement && field.type === "radio"
    ? `${name}=${field.value}`
    : `${field.tagName}:${name}`;
}

function fieldsByKey(root: Element): Map<string, Field> {
  const map = new Map<string, Field>();
  for (const field of root.querySelectorAll<Field>("input, textarea, select")) {
    const key = fieldKey(field);
    if (key && !map.has(key)) map.set(key, field);
  }
  return map;
}

/** Copies what was typed into `from`'s fields to the same fields of `to`, which has the server's defaults. */
function carryTypedValues(from: Element, to: Element): void {
  const targets = fieldsByKey(to);
  for (const [key, field] of fieldsByKey(from)) {
    const target = targets.get(key);
    if (!target || target.tagName !== field.tagName) continue;
    if (field instanceof HTMLSelectElement && target instanceof HTMLSelectElement) target.value = field.value;
    else if (
      field instanceof HTMLInputElement &&
      target instanceof HTMLInputElement &&
      /^(checkbox|radio)$/.test(field.type)
    )
      target.checked = field.checked;
    else if (!(field instanceof HTMLSelectElement) && field.value !== field.defaultValue) target.value = field.value;
  }
}

let imports = 0;

/**
 * Mounts each changed island again: `change.live` must still be in the page (morphed, or added by
 * the morph for a new island). An island module hydrates every container of its name when it runs,
 * so the containers of that name that did not change are hidden from it meanwhile.
 */
export async function remountIslands(changes: IslandChange[]): Promise<void> {
  const byModule = new Map<string, { name: string; containers: HTMLElement[]; focus: string | null }>();
  for (const change of changes) {
    const live = document.querySelector<HTMLElement>(
      `[data-island-id="${CSS.escape(change.next.dataset.islandId ?? "")}"]`,
    );
    if (!live) continue;
    const fresh = document.importNode(change.next, true);
    if (live !== change.next) carryTypedValues(live, fresh);
    const active = document.activeElement;
    const focus = active && live.contains(active) ? fieldKey(active) : null;
    live.replaceWith(fresh);
    const entry = byModule.get(change.module) ?? { name: change.name, containers: [], focus: null };
    entry.containers.push(fresh);
    entry.focus ??= focus;
    byModule.set(change.module, entry);
  }
  for (const [module, { name, containers, focus }] of byModule) {
    const others = [...document.querySelectorAll<HTMLElement>(`[data-island="${CSS.escape(name)}"]`)].filter(
      (c) => !containers.includes(c),
    );
    for (const other of others) other.removeAttribute("data-island");
    try {
      // A new instance of the entry each time (the same address would not run again); its chunks, React's among them, are shared.
      await import(/* @vite-ignore */ `${module}?nzf-dev=${++imports}`);
    } finally {
      for (const other of others) other.setAttribute("data-island", name);
    }
    if (focus) {
      // After the island hydrated (in the task its entry queued), the field it had is focused again.
      setTimeout(() => {
        for (const container of containers) fieldsByKey(container).get(focus)?.focus();
      }, 0);
    }
  }
}
