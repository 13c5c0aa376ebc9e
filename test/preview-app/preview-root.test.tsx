// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:3000/about/"}
import { act } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { makeDocument, SEARCH_PATH, startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";
import type { PreviewState } from "../../src/preview/machine.js";
import { mountPreview, type PreviewRootProps } from "../../src/preview-app/preview-root.js";

// vitest.config.ts sets NODE_ENV=production; React's production build has no `act` (see dialogs.test.tsx).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const REF = "https://nzf2020.prismic.io/previews/ZdraftAAA:ZsessionBBB";
const DRAFT = makeDocument({ id: "case1", uid: "amina", type: "case", data: { title: "Amina (draft)" } });

/**
 * The shared Prismic stub, behind a pass-through that adds CORS like the real CDN: happy-dom's fetch
 * enforces the same-origin policy and preflights every cross-origin request with OPTIONS.
 */
async function withCors(target: string): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const origin = new URL(target);
  const server: Server = createServer((req, res) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET",
      "access-control-allow-headers": "*",
    };
    if (req.method === "OPTIONS") return void res.writeHead(204, cors).end();
    const upstream = request(
      { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...cors });
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}${origin.pathname}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

let stub: PrismicStub;
let api: { endpoint: string; close: () => Promise<void> };
beforeAll(async () => {
  stub = await startPrismicStub({ documents: [], previewRefs: { [REF]: [DRAFT] }, accessToken: "MC5right" });
  api = await withCors(stub.endpoint);
});
afterAll(async () => {
  await api.close();
  await stub.stop();
});

let unmount: (() => void) | undefined;
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  // Expire every cookie this test set, through the real document.cookie.
  for (const name of document.cookie
    .split(/;\s*/)
    .map((c) => c.split("=")[0])
    .filter(Boolean)) {
    document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
  document.body.innerHTML = "";
});

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Moves the happy-dom page to `url`, as arriving from a link would. */
const pageAt = (url: string) => (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);

function mount(extra: Partial<PreviewRootProps> = {}) {
  const states: PreviewState["previewState"][] = [];
  const flags: (boolean | null)[] = [];
  const container = document.createElement("div");
  document.body.append(container);
  act(() => {
    unmount = mountPreview(container, {
      repositoryName: "nzf2020",
      endpoint: api.endpoint,
      onStateChange: (state, isPreview) => {
        states.push(state.previewState);
        flags.push(isPreview);
      },
      ...extra,
    });
  });
  return { states, flags, last: () => states.at(-1) };
}
const dialogTitle = () => {
  const d = document.querySelector("dialog");
  return d ? document.getElementById(d.getAttribute("aria-labelledby")!)!.textContent : null;
};
function typeToken(value: string) {
  const input = document.querySelector<HTMLInputElement>('input[name="access-token"]')!;
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  act(() =>
    [...document.querySelectorAll("dialog button")]
      .find((b) => b.textContent === "Continue")!
      .dispatchEvent(new MouseEvent("click", { bubbles: true })),
  );
}
const setPreviewCookie = () => {
  document.cookie = `io.prismic.preview=${encodeURIComponent(JSON.stringify({ "nzf2020.prismic.io": { preview: REF } }))}; Path=/`;
};

describe("the preview island in happy-dom, against a local API", () => {
  it("renders nothing and reports isPrismicPreview false for a visitor", async () => {
    const t = mount();
    await until(() => t.last() === "not-preview", "not-preview");
    expect(t.flags).toEqual([null, false]);
    expect(document.querySelector("dialog")).toBeNull();
  });

  it("asks for a token, flags a wrong one as incorrect, and becomes active with the right one", async () => {
    setPreviewCookie();
    const t = mount();
    await until(() => t.last() === "prompt-for-access-token", "the token prompt");
    expect(dialogTitle()).toBe("Enter your access token");
    expect(document.body.textContent).not.toContain("Incorrect token");

    typeToken("MC5wrong");
    expect(document.cookie).toContain("prismic-auth-token-nzf2020=MC5wrong");
    await until(() => t.states.filter((s) => s === "prompt-for-access-token").length === 2, "the second prompt");
    expect(t.states).toEqual([
      "idle",
      "bootstrapping",
      "prompt-for-access-token",
      "idle",
      "bootstrapping",
      "prompt-for-access-token",
    ]);
    const input = document.querySelector<HTMLInputElement>('input[name="access-token"]')!;
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(input.getAttribute("aria-describedby")!)!.textContent).toBe("Incorrect token");

    typeToken("MC5right");
    await until(() => t.last() === "active", "active");
    expect(document.querySelector("dialog")).toBeNull();
    expect(stub.requestsTo(SEARCH_PATH).at(-1)!.query).toMatchObject({ ref: REF, access_token: "MC5right" });
    expect(t.flags.at(-1)).toBe(true);
  });

  it("Cancel on the prompt returns to idle and closes the dialog", async () => {
    setPreviewCookie();
    const t = mount();
    await until(() => t.last() === "prompt-for-access-token", "the token prompt");
    act(() =>
      [...document.querySelectorAll("dialog button")]
        .find((b) => b.textContent === "Cancel")!
        .dispatchEvent(new MouseEvent("click", { bubbles: true })),
    );
    expect(t.last()).toBe("idle");
    expect(t.flags.at(-1)).toBeNull();
    expect(document.querySelector("dialog")).toBeNull();
  });

  it("resolves on /preview/ and navigates to the document's page", async () => {
    document.cookie = "prismic-auth-token-nzf2020=MC5right; Path=/";
    // The editor arrives on the resolver page; where it sends them is asked of the page's own location.
    pageAt(`http://localhost:3000/preview/?token=${encodeURIComponent(REF)}&documentId=case1`);
    const navigations: string[] = [];
    const assign = vi
      .spyOn(window.location, "assign")
      .mockImplementation((path) => void navigations.push(String(path)));
    try {
      const t = mount();
      await until(() => t.last() === "resolved", "resolved");
    } finally {
      assign.mockRestore();
      pageAt("http://localhost:3000/about/");
    }
    expect(navigations).toEqual(["/case/amina/"]);
    expect(decodeURIComponent(document.cookie)).toContain(`"nzf2020.prismic.io":{"preview":"${REF}"}`);
  });

  it("shows the error dialog with the message when the repository is not found", async () => {
    setPreviewCookie();
    document.cookie = "prismic-auth-token-nzf2020=MC5right; Path=/";
    const t = mount({ endpoint: api.endpoint.replace("/api/v2", "/missing/api/v2") });
    await until(() => t.last() === "failed", "failed");
    expect(dialogTitle()).toBe("Error");
    expect(document.querySelector("dialog")!.textContent).toContain("Prismic repository not found");
    expect(document.querySelector("dialog footer")!.textContent).toContain("nzf2020");
  });
});
