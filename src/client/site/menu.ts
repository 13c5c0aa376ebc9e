/**
 * The phone's Menu (templates/components/layout.tsx) is a <details> disclosure: it opens and closes
 * with the keyboard and the pointer without any script, and browsers expose its expanded state.
 * This adds what a disclosure menu is expected to do on top: Escape closes it and puts focus back on
 * its button, and a click or tap outside it closes it. Two listeners on the document, set up as the
 * page loader starts (src/client/entries/page-scripts.ts), so they work before anything else loads.
 */
const MENU = "details.menu";

function openMenu(): HTMLDetailsElement | null {
  return document.querySelector<HTMLDetailsElement>(`${MENU}[open]`);
}

export function enhanceMenu(): void {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const menu = openMenu();
    if (!menu) return;
    menu.open = false;
    menu.querySelector<HTMLElement>("summary")?.focus();
  });
  document.addEventListener("click", (event) => {
    const menu = openMenu();
    if (menu && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
  });
}
