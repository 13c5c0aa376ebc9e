// @vitest-environment happy-dom
/**
 * The browser side of the islands protocol with React (src/client/hydrate.ts): the server's markup
 * comes from renderToString with the island's identifierPrefix, as src/template-kit/islands.tsx renders it,
 * and the island hydrates it as the built bundle does. React runs in production mode, as in the bundles.
 */
import { useState } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { hydrateIsland, hydrateIslands } from "../../src/client/hydrate.js";

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  errors = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  errors.mockRestore();
  document.body.innerHTML = "";
});

/** Puts an island's server markup and props on the page, as a built page carries them. */
function serverRender<P extends object>(name: string, element: React.ReactElement, props: P, id = "i0"): HTMLElement {
  const markup = renderToString(element, { identifierPrefix: `${id}-` });
  document.body.innerHTML = `<main><div class="nzf-island" data-island="${name}" data-island-id="${id}">${markup}</div><script type="application/json" data-island-props="${id}">${JSON.stringify(props)}</script></main>`;
  return document.querySelector<HTMLElement>(`[data-island-id="${id}"]`)!;
}

const onServer = () => typeof (globalThis as { isServerRender?: boolean }).isServerRender === "boolean";

/** Renders differently on the "server" and in the browser: a deliberate hydration mismatch. */
function Mismatch() {
  return <p>{onServer() ? "rendered on the server" : "rendered in the browser"}</p>;
}

function Amount({ start }: { start: string }) {
  const [amount, setAmount] = useState(start);
  const [gift, setGift] = useState(false);
  const [renders, setRenders] = useState(0);
  return (
    <form>
      <label htmlFor="i0-amount">Amount</label>
      <input id="i0-amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
      <input id="i0-gift" type="checkbox" checked={gift} onChange={(e) => setGift(e.target.checked)} />
      <output>{`${amount}|${gift}`}</output>
      <button type="button" onClick={() => setRenders(renders + 1)}>
        render {renders}
      </button>
    </form>
  );
}

function asServer<T>(render: () => T): T {
  (globalThis as { isServerRender?: boolean }).isServerRender = true;
  try {
    return render();
  } finally {
    delete (globalThis as { isServerRender?: boolean }).isServerRender;
  }
}

describe("hydrating an island with React", () => {
  it("reports a hydration mismatch with the island's name, and shows the browser's render", () => {
    const container = asServer(() => serverRender("mismatch", <Mismatch />, {}));
    expect(container.textContent).toBe("rendered on the server");
    hydrateIsland("mismatch", Mismatch, container, {}, "now");
    const reported = errors.mock.calls.map((args) => String(args[0]));
    expect(reported).toEqual([
      expect.stringContaining("Island \"mismatch\" (i0): the server's HTML and the browser's first render differ"),
    ]);
    // React's own error (minified in production) is logged with it.
    expect(String(errors.mock.calls[0]![1])).toMatch(/418|Hydration failed/);
    expect(container.textContent).toBe("rendered in the browser");
    expect(container.dataset.hydrated).toBe("true");
  });

  it("reports nothing for an island whose markup matches, and hydrates it at once when asked to", () => {
    const container = serverRender("amount", <Amount start="10" />, { start: "10" });
    const input = container.querySelector("input")!;
    hydrateIsland("amount", Amount, container, { start: "10" }, "now");
    expect(container.dataset.hydrated).toBe("true");
    expect(container.querySelector("input")).toBe(input); // hydrated, not rendered again
    expect(errors).not.toHaveBeenCalled();
  });

  it("hydrates in slices when the island starts at load, and reports when it is done", async () => {
    const container = serverRender("amount", <Amount start="10" />, { start: "10" });
    hydrateIsland("amount", Amount, container, { start: "10" }, "in-slices");
    expect(container.dataset.hydrated).toBeUndefined();
    await vi.waitFor(() => expect(container.dataset.hydrated).toBe("true"));
    expect(errors).not.toHaveBeenCalled();
  });

  // Text fields here; a radio button checked before hydration is taken over in Chromium
  // (test/browser/calculator.test.ts): happy-dom's click sets `checked` through the property React watches.
  it("takes over what the browser typed into a field before hydration, and keeps it through later renders", async () => {
    const container = serverRender("amount", <Amount start="10" />, { start: "10" });
    container.querySelector<HTMLInputElement>("#i0-amount")!.value = "250";
    hydrateIsland("amount", Amount, container, { start: "10" }, "now");
    await vi.waitFor(() => expect(container.querySelector("output")!.textContent).toBe("250|false"));
    container.querySelector("button")!.click();
    await vi.waitFor(() => expect(container.querySelector("button")!.textContent).toBe("render 1"));
    expect(container.querySelector<HTMLInputElement>("#i0-amount")!.value).toBe("250");
    expect(errors).not.toHaveBeenCalled();
  });

  it("an island that could wait hydrates at once when the browser filled a field before its code ran", async () => {
    const container = serverRender("amount", <Amount start="10" />, { start: "10" });
    // Autofill or a restored form: the value changed with no event the page could have seen.
    container.querySelector<HTMLInputElement>("#i0-amount")!.value = "40";
    hydrateIslands("amount", { default: Amount, hydrateNow: () => false });
    await vi.waitFor(() => expect(container.dataset.hydrated).toBe("true"));
    await vi.waitFor(() => expect(container.querySelector("output")!.textContent).toBe("40|false"));
    expect(errors).not.toHaveBeenCalled();
  });

  it("an island that can wait hydrates inside the visitor's first focus", async () => {
    const container = serverRender("amount", <Amount start="10" />, { start: "10" });
    hydrateIslands("amount", { default: Amount, hydrateNow: () => false });
    await vi.waitFor(() => expect(container.dataset.hydrated).toBe("on-first-use"));
    const input = container.querySelector<HTMLInputElement>("#i0-amount")!;
    input.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(container.dataset.hydrated).toBe("true");
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A keystroke: the browser changes the value itself (not through the element's property) and fires input.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, "75");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await vi.waitFor(() => expect(container.querySelector("output")!.textContent).toBe("75|false"));
    expect(errors).not.toHaveBeenCalled();
  });
});
