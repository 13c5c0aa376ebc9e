/**
 * The card or PayPal step as an entry in the browser's history. On a phone the system Back button is
 * how a donor says "go back": without an entry of its own, Back at the card step left the giving page
 * (what was typed kept in the session, but the donor elsewhere). With one, Back returns to the form,
 * on the same page, with everything as typed. In the pay kit: loaded with the step, never before.
 */
const STEP = "nzf-pay-step";

/**
 * Adds the step's entry; `onLeave` runs when the donor goes back (Back, or the step's own button
 * through the function returned, which takes the entry away as Back does).
 */
export function enterStepInHistory(onLeave: () => void): () => void {
  const mode = history.scrollRestoration;
  // Back lands where the form's own code puts it (its heading, at the top and focused), not where the
  // browser remembers the page was scrolled when the donor pressed Continue. Both entries get the mode.
  history.scrollRestoration = "manual";
  history.pushState({ ...(history.state as object | null), [STEP]: true }, "");
  const onPop = () => {
    window.removeEventListener("popstate", onPop);
    history.scrollRestoration = mode;
    onLeave();
  };
  window.addEventListener("popstate", onPop);
  return () => {
    if ((history.state as Record<string, unknown> | null)?.[STEP]) history.back();
    else onPop();
  };
}
