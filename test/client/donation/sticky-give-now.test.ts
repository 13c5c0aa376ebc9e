// @vitest-environment happy-dom
/**
 * The sticky "Give now": hidden while the hero's own action or the form is in view, or while a field
 * has focus (a phone's keyboard is up), shown otherwise. IntersectionObserver is stood in for, so the
 * test says exactly what is in view.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { watchStickyGiveNow } from "../../../src/client/donation/sticky-give-now.js";

type Callback = (entries: { target: Element; isIntersecting: boolean }[]) => void;
let report: Callback;
const observed: Element[] = [];

beforeEach(() => {
  observed.length = 0;
  (globalThis as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
    constructor(callback: Callback) {
      report = callback;
    }
    observe(el: Element) {
      observed.push(el);
    }
    disconnect() {}
  };
  document.body.innerHTML = `
    <main>
      <p class="don-jump"><a href="#give">Give now</a></p>
      <input id="search">
      <section id="give" class="donation-panel"><input id="amount"></section>
      <a class="don-sticky" href="#give" hidden>Give now</a>
    </main>`;
  watchStickyGiveNow(document);
});

afterEach(() => {
  document.body.innerHTML = "";
});

const sticky = () => document.querySelector<HTMLElement>(".don-sticky")!;
const hero = () => document.querySelector(".don-jump")!;
const panel = () => document.querySelector(".donation-panel")!;

describe("the sticky Give now", () => {
  it("stays hidden at the top, shows once the hero's action has gone, hides again at the form", () => {
    expect(observed).toEqual([hero(), panel()]);
    expect(sticky().hidden).toBe(true);
    report([{ target: hero(), isIntersecting: true }]);
    expect(sticky().hidden).toBe(true);
    report([{ target: hero(), isIntersecting: false }]);
    expect(sticky().hidden).toBe(false);
    report([{ target: panel(), isIntersecting: true }]);
    expect(sticky().hidden).toBe(true);
    report([{ target: panel(), isIntersecting: false }]);
    expect(sticky().hidden).toBe(false);
    report([{ target: hero(), isIntersecting: true }]);
    expect(sticky().hidden).toBe(true);
  });

  it("steps aside while a field has focus, so it never covers what is typed", () => {
    report([
      { target: hero(), isIntersecting: false },
      { target: panel(), isIntersecting: false },
    ]);
    expect(sticky().hidden).toBe(false);
    document.querySelector<HTMLInputElement>("#search")!.focus();
    expect(sticky().hidden).toBe(true);
    document.querySelector<HTMLInputElement>("#search")!.blur();
    expect(sticky().hidden).toBe(false);
  });
});
