/**
 * Moving the donor to the next step: the step's heading gets keyboard focus and is scrolled to the
 * top of the viewport (its CSS scroll-margin keeps a little room above it), so on a phone the donor
 * sees where they are now instead of the end of the step they left.
 */
export function focusStep(element: HTMLElement | null): void {
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: "start" });
}

/** After React has committed the change that opened the step (a group, the result). */
export function focusStepById(id: string): void {
  requestAnimationFrame(() => focusStep(document.getElementById(id)));
}
