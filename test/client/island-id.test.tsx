import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { IslandPrefixContext, prefixOfReactId, useIslandId } from "../../src/client/island-id.js";

function Labelled({ name }: { name: string }) {
  const id = useIslandId(`field-${name}`);
  return (
    <p>
      <label htmlFor={id}>{name}</label>
      <input id={id} />
    </p>
  );
}

const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);

describe("useIslandId", () => {
  it("on the server, takes the island's prefix out of React's useId (what the build renders)", () => {
    // src/template-kit/islands.tsx renders island n with identifierPrefix `i<n>-`; the browser provides the same prefix.
    const html = renderToString(<Labelled name="email" />, { identifierPrefix: "i7-" });
    expect(ids(html)).toEqual(["i7-field-email"]);
    expect(html).toContain('for="i7-field-email"');
  });

  it("in the browser, uses the prefix hydrate.ts provides, whatever React's own ids are", () => {
    const html = renderToString(
      <IslandPrefixContext.Provider value="i3-">
        <Labelled name="email" />
      </IslandPrefixContext.Provider>,
    );
    expect(ids(html)).toEqual(["i3-field-email"]);
  });

  it("without an island prefix (component tests), two components never share an id", () => {
    const html = renderToString(
      <>
        <Labelled name="email" />
        <Labelled name="email" />
      </>,
    );
    const [a, b] = ids(html);
    expect(a).toMatch(/field-email$/);
    expect(b).toMatch(/field-email$/);
    expect(a).not.toBe(b);
  });
});

describe("prefixOfReactId", () => {
  it("reads the prefix of each React 19 id format, and nothing when there is none", () => {
    expect(prefixOfReactId("_i0-R_5_")).toBe("i0-");
    expect(prefixOfReactId("_i12-R_0H1_")).toBe("i12-");
    expect(prefixOfReactId("«i2-R1»")).toBe("i2-");
    expect(prefixOfReactId("_R_5_")).toBe("");
    expect(prefixOfReactId("_r_1_")).toBe("");
  });
});
