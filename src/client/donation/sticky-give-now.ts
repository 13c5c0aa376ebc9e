/**
 * The phone's sticky "Give now" (templates/pages/donation.tsx, server-rendered hidden): shown only
 * once the hero's own "Give now" has scrolled away and while the form is out of view, so the two
 * never show together and the sticky one never covers the form's buttons or a field being typed in.
 * It is fixed at the bottom of the screen and the page keeps room for it, so showing it moves nothing.
 * Started when the donation island's code runs (its entry calls this), not when the island hydrates:
 * the island waits for the donor's first use, the sticky action must not.
 */
const FIELD = "input, select, textarea";

export function watchStickyGiveNow(doc: Document = document): void {
  const sticky = doc.querySelector<HTMLElement>(".don-sticky");
  const hero = doc.querySelector<HTMLElement>(".don-jump");
  const panel = doc.querySelector<HTMLElement>(".donation-panel");
  if (!sticky || !hero || !panel || typeof IntersectionObserver === "undefined") return;
  const inView = new Map<Element, boolean>([
    // Until the observer's first report, as the page opens: the hero's action is on screen.
    [hero, true],
    [panel, false],
  ]);
  let typing = false;
  const update = () => {
    sticky.hidden = inView.get(hero)! || inView.get(panel)! || typing;
  };
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) inView.set(entry.target, entry.isIntersecting);
    update();
  });
  observer.observe(hero);
  observer.observe(panel);
  // A field with focus anywhere (a phone's keyboard is up): the bar would sit over what is typed.
  doc.addEventListener("focusin", (e) => {
    typing = e.target instanceof Element && e.target.matches(FIELD);
    update();
  });
  doc.addEventListener("focusout", () => {
    typing = false;
    update();
  });
}
