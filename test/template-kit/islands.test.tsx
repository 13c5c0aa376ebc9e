import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import {
  createIslandCollector,
  Island,
  IslandCollectorContext,
  serializeIslandProps,
} from "../../src/template-kit/islands.js";

function Echo({ text }: { text: string }) {
  return <p title={text}>{text}</p>;
}

describe("island props", () => {
  it("cannot break out of the script element, whatever the content", () => {
    const hostile = { text: "</script><script>alert(1)</script><!-- & \u2028" };
    const json = serializeIslandProps(hostile);
    expect(json).not.toContain("<");
    expect(json).not.toContain(">");
    expect(json).not.toContain("\u2028");
    expect(JSON.parse(json)).toEqual(hostile);
  });

  it("rejects values that are not JSON data", () => {
    expect(() => serializeIslandProps({ f: () => 1 })).toThrow(/plain JSON/);
    expect(() => serializeIslandProps({ n: 1n })).toThrow(/plain JSON/);
  });

  it("renders the markup, the props and records the island, escaping attribute content", () => {
    const collector = createIslandCollector();
    const html = renderToString(
      <IslandCollectorContext.Provider value={collector}>
        <Island name="echo" component={Echo} props={{ text: '"><img src=x onerror=alert(1)>' }} />
        <Island name="echo" component={Echo} props={{ text: "two" }} />
      </IslandCollectorContext.Provider>,
    );
    expect(collector.names).toEqual(["echo"]);
    expect(html).toContain('data-island="echo" data-island-id="i0"');
    expect(html).toContain('data-island-id="i1"');
    expect(html).not.toContain("<img");
    expect(html).toContain('<script type="application/json" data-island-props="i1">{"text":"two"}</script>');
  });
});
