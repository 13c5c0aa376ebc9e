import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { pathForDocument } from "../../src/content/routes.js";
import type { CookieJar } from "../../src/preview/cookies.js";
import { initialPreviewState, previewReducer, type PreviewEvent } from "../../src/preview/machine.js";
import { makeDocument, SEARCH_PATH, startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";
import { runPreview, type RunPreviewOptions } from "../../src/preview-app/run-preview.js";
import { realSleep } from "../../src/core/retry.js";

// A 429's wait (src/core/retry.ts's realSleep, which the preview waits with) is recorded and not
// waited: the tests read how long the client would have waited.
vi.mock("../../src/core/retry.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/core/retry.js")>()),
  realSleep: vi.fn(async () => undefined),
}));
const waits = () => vi.mocked(realSleep).mock.calls.map(([ms]) => ms);
beforeEach(() => vi.mocked(realSleep).mockClear());

const REPO = "nzf2020";
const PREVIEW_REF = "https://nzf2020.prismic.io/previews/ZdraftAAA:ZsessionBBB?websitePreviewId=Zsite";
const published = makeDocument({ id: "home1", type: "home_page", data: { title: "Home" } });
const draft = makeDocument({
  id: "blog1",
  type: "blog_article",
  uid: "eid-appeal",
  data: { title: "Eid appeal (draft)" },
});
const settings = makeDocument({ id: "set1", type: "site_settings" });

/** A cookie jar that applies Set-Cookie-style strings the way a browser does (name, value, Max-Age=0). */
function memoryJar(
  initial: Record<string, string> = {},
  secure = false,
): CookieJar & { map: Map<string, string>; writes: string[] } {
  const map = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    map,
    writes,
    secure,
    read: () => [...map].map(([k, v]) => `${k}=${v}`).join("; "),
    write: (setCookie) => {
      writes.push(setCookie);
      const [pair, ...attrs] = setCookie.split(/;\s*/);
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      if (attrs.includes("Max-Age=0")) map.delete(name);
      else map.set(name, pair!.slice(eq + 1));
    },
  };
}
const previewCookie = (repo = REPO, ref = PREVIEW_REF) => ({
  "io.prismic.preview": encodeURIComponent(JSON.stringify({ [`${repo}.prismic.io`]: { preview: ref } })),
});

let publicApi: PrismicStub;
let privateApi: PrismicStub;
beforeAll(async () => {
  publicApi = await startPrismicStub({
    documents: [published],
    previewRefs: { [PREVIEW_REF]: [published, draft, settings] },
  });
  privateApi = await startPrismicStub({
    documents: [published],
    previewRefs: { [PREVIEW_REF]: [published, draft] },
    accessToken: "MC5secret",
  });
});
afterAll(async () => {
  await publicApi.stop();
  await privateApi.stop();
});

function setup(
  overrides: Partial<RunPreviewOptions> & {
    jar?: CookieJar;
    api?: PrismicStub;
    pathname?: string;
    search?: string;
  } = {},
) {
  const events: PreviewEvent[] = [];
  const navigations: string[] = [];
  const options: RunPreviewOptions = {
    repositoryName: REPO,
    endpoint: (overrides.api ?? publicApi).endpoint,
    fetch: (url, init) => fetch(url, init),
    location: { pathname: overrides.pathname ?? "/about/", search: overrides.search ?? "" },
    navigate: (path) => void navigations.push(path),
    cookies: overrides.jar ?? memoryJar(),
    resolvePath: pathForDocument,
    dispatch: (event) => void events.push(event),
    ...overrides,
  };
  const finalState = () => events.reduce(previewReducer, initialPreviewState(REPO));
  return { options, events, navigations, finalState, types: () => events.map((e) => e.type) };
}
const resolverSearch = (documentId: string, token = PREVIEW_REF) =>
  `?token=${encodeURIComponent(token)}&documentId=${documentId}`;

describe("runPreview on an ordinary page", () => {
  it("is not a preview without the preview cookie, and makes no request", async () => {
    const before = publicApi.requests.length;
    const t = setup();
    await expect(runPreview(t.options)).resolves.toBe("not-preview");
    expect(t.types()).toEqual(["NOT_A_PREVIEW"]);
    expect(t.finalState().previewState).toBe("not-preview");
    expect(publicApi.requests.length).toBe(before);
  });

  it("is not a preview when the cookie belongs to another repository", async () => {
    const t = setup({ jar: memoryJar(previewCookie("other-repo")) });
    await expect(runPreview(t.options)).resolves.toBe("not-preview");
  });

  it("bootstraps with the cookie and queries the preview ref", async () => {
    const t = setup({ jar: memoryJar(previewCookie()) });
    await expect(runPreview(t.options)).resolves.toBe("active");
    expect(t.types()).toEqual(["START_BOOTSTRAPPING", "BOOTSTRAPPED"]);
    expect(t.finalState().previewState).toBe("active");
    expect(publicApi.requests.at(-1)!.query.ref).toBe(PREVIEW_REF);
  });

  it("fails with the plugin's message for an invalid repository name, before any request", async () => {
    const before = publicApi.requests.length;
    const t = setup({ repositoryName: "nz_f", jar: memoryJar(previewCookie("nz_f")) });
    await expect(runPreview(t.options)).resolves.toBe("failed");
    expect(t.events).toEqual([{ type: "FAILED", error: "An invalid repository name was given." }]);
    expect(publicApi.requests.length).toBe(before);
  });

  it("prompts for a token on a private repository, and succeeds with the stored one", async () => {
    const t = setup({ api: privateApi, jar: memoryJar(previewCookie()) });
    await expect(runPreview(t.options)).resolves.toBe("prompt-for-access-token");
    expect(t.finalState().previewState).toBe("prompt-for-access-token");

    const withToken = setup({
      api: privateApi,
      jar: memoryJar({ ...previewCookie(), "prismic-auth-token-nzf2020": "MC5secret" }),
    });
    await expect(runPreview(withToken.options)).resolves.toBe("active");
    expect(privateApi.requests.at(-1)!.query.access_token).toBe("MC5secret");
  });

  it("fails with 'Unauthorized access' when prompting is off", async () => {
    const t = setup({ api: privateApi, jar: memoryJar(previewCookie()), promptForAccessToken: false });
    await expect(runPreview(t.options)).resolves.toBe("failed");
    expect(t.finalState()).toMatchObject({ previewState: "failed", error: "Unauthorized access" });
  });

  it("fails with 'Ref could not be found.' when the preview has expired", async () => {
    const t = setup({ jar: memoryJar(previewCookie(REPO, "https://nzf2020.prismic.io/previews/gone")) });
    await runPreview(t.options);
    expect(t.finalState()).toMatchObject({ previewState: "failed", error: "Ref could not be found." });
  });
});

describe("runPreview with a bootstrap step (loading the drafts)", () => {
  it("runs bootstrap while bootstrapping, with the preview ref and a client, before BOOTSTRAPPED", async () => {
    const seenAt: string[] = [];
    let titles: string[] = [];
    const t = setup({
      jar: memoryJar(previewCookie()),
      bootstrap: async (ref, client) => {
        seenAt.push(ref, String(t.events.at(-1)?.type));
        titles = (await client.search({ pageSize: "100" })).results.map((d) => String(d.data?.title));
      },
    });
    await expect(runPreview(t.options)).resolves.toBe("active");
    expect(seenAt).toEqual([PREVIEW_REF, "START_BOOTSTRAPPING"]);
    expect(titles).toContain("Eid appeal (draft)");
    expect(t.types()).toEqual(["START_BOOTSTRAPPING", "BOOTSTRAPPED"]);
  });

  it("a 401 while loading the drafts still leads to the token prompt", async () => {
    const t = setup({
      api: privateApi,
      jar: memoryJar(previewCookie()),
      bootstrap: async (_ref, client) => void (await client.search({ pageSize: "100" })),
    });
    await expect(runPreview(t.options)).resolves.toBe("prompt-for-access-token");
    expect(t.types()).toEqual(["START_BOOTSTRAPPING", "PROMPT_FOR_ACCESS_TOKEN"]);
  });

  it("a rendering error fails with its own message", async () => {
    const t = setup({
      jar: memoryJar(previewCookie()),
      bootstrap: async () => Promise.reject(new Error("Route collision in the drafts")),
    });
    await expect(runPreview(t.options)).resolves.toBe("failed");
    expect(t.finalState().error).toBe("Route collision in the drafts");
  });

  it("hands bootstrap the abort signal, and stays silent once aborted", async () => {
    const controller = new AbortController();
    let signalSeen: AbortSignal | undefined;
    const t = setup({
      jar: memoryJar(previewCookie()),
      signal: controller.signal,
      bootstrap: async (_ref, _client, signal) => {
        signalSeen = signal;
        controller.abort();
      },
    });
    await expect(runPreview(t.options)).resolves.toBe("aborted");
    expect(signalSeen?.aborted).toBe(true);
    expect(t.types()).toEqual(["START_BOOTSTRAPPING"]);
  });
});

describe("runPreview on the resolver page", () => {
  it("resolves the draft document's path with the route table and navigates there", async () => {
    const jar = memoryJar();
    const t = setup({ pathname: "/preview/", search: resolverSearch("blog1"), jar });
    await expect(runPreview(t.options)).resolves.toBe("resolved");
    expect(t.events).toEqual([{ type: "START_RESOLVING" }, { type: "RESOLVED", path: "/blog/eid-appeal/" }]);
    expect(t.finalState()).toMatchObject({ previewState: "resolved", resolvedPath: "/blog/eid-appeal/" });
    expect(t.navigations).toEqual(["/blog/eid-appeal/"]);
    // The resolved page must find the preview: the token is now this repository's preview cookie.
    const value = JSON.parse(decodeURIComponent(jar.map.get("io.prismic.preview")!));
    expect(value).toEqual({ "nzf2020.prismic.io": { preview: PREVIEW_REF } });
    const last = publicApi.requestsTo(SEARCH_PATH).at(-1)!;
    expect(last.query.ref).toBe(PREVIEW_REF);
    expect(last.query.lang).toBe("*");
  });

  it("accepts /preview without the trailing slash", async () => {
    const t = setup({ pathname: "/preview", search: resolverSearch("blog1") });
    await expect(runPreview(t.options)).resolves.toBe("resolved");
  });

  it("falls back to / for a document with no page", async () => {
    const t = setup({ pathname: "/preview/", search: resolverSearch("set1") });
    await runPreview(t.options);
    expect(t.navigations).toEqual(["/"]);
  });

  it("without documentId it is an ordinary page", async () => {
    const t = setup({ pathname: "/preview/", search: `?token=${encodeURIComponent(PREVIEW_REF)}` });
    await expect(runPreview(t.options)).resolves.toBe("not-preview");
  });

  it("prompts for a token on a private repository", async () => {
    const t = setup({ api: privateApi, pathname: "/preview/", search: resolverSearch("blog1") });
    await expect(runPreview(t.options)).resolves.toBe("prompt-for-access-token");
    expect(t.types()).toEqual(["START_RESOLVING", "PROMPT_FOR_ACCESS_TOKEN"]);
    expect(t.navigations).toEqual([]);
  });

  it("waits out a 429 for retry-after seconds and goes on", async () => {
    publicApi.inject(SEARCH_PATH, { status: 429, retryAfter: 3 });
    const t = setup({ pathname: "/preview/", search: resolverSearch("blog1") });
    await expect(runPreview(t.options)).resolves.toBe("resolved");
    expect(waits()).toEqual([3000]);
  });

  it("says 'No documents were returned' for an unknown document", async () => {
    const t = setup({ pathname: "/preview/", search: resolverSearch("nope") });
    await runPreview(t.options);
    expect(t.finalState()).toMatchObject({ previewState: "failed", error: "No documents were returned" });
  });

  it("stays silent and does not navigate once aborted (Cancel Preview)", async () => {
    publicApi.inject(SEARCH_PATH, { delayMs: 300 });
    const controller = new AbortController();
    const t = setup({ pathname: "/preview/", search: resolverSearch("blog1"), signal: controller.signal });
    const run = runPreview(t.options);
    setTimeout(() => controller.abort(), 50);
    await expect(run).resolves.toBe("aborted");
    expect(t.types()).toEqual(["START_RESOLVING"]);
    expect(t.navigations).toEqual([]);
  });
});
