import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createPreviewClient } from "../../src/preview/content-api.js";
import { ContentApiError, eventForError, fetchRetrying429, MAX_RATE_LIMIT_RETRIES } from "../../src/preview/errors.js";
import { realSleep, retryAfterMs } from "../../src/core/retry.js";
import { makeDocument, SEARCH_PATH, startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";

// A 429's wait (src/core/retry.ts's realSleep, which the preview waits with) is recorded and not
// waited: the tests read how long the client would have waited.
vi.mock("../../src/core/retry.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/core/retry.js")>()),
  realSleep: vi.fn(async () => undefined),
}));
const waits = () => vi.mocked(realSleep).mock.calls.map(([ms]) => ms);
beforeEach(() => vi.mocked(realSleep).mockClear());

const REF = "https://nzf2020.prismic.io/previews/abc:def";
const DOC = makeDocument({ id: "XoYKjx", uid: "eid-appeal", type: "blog_article" });

let api: PrismicStub;
beforeAll(async () => {
  api = await startPrismicStub({ documents: [], previewRefs: { [REF]: [DOC] }, accessToken: "good-token" });
});
afterAll(() => api.stop());

function client(accessToken: string | undefined, endpoint = api.endpoint) {
  return createPreviewClient({
    endpoint,
    ref: REF,
    accessToken,
    fetch: (url, init) => fetch(url, init),
  });
}

async function failure(promise: Promise<unknown>): Promise<ContentApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ContentApiError);
  return error as ContentApiError;
}

describe("content API errors against a real local server", () => {
  it("returns the document with the right token", async () => {
    await expect(client("good-token").getByID("XoYKjx")).resolves.toMatchObject({ uid: "eid-appeal" });
    const last = api.requestsTo(SEARCH_PATH).at(-1)!;
    expect(last.query.ref).toBe(REF);
    expect(last.query.access_token).toBe("good-token");
  });

  it("maps 401 to the token prompt, or to 'Unauthorized access' when prompting is off", async () => {
    const error = await failure(client("wrong").getByID("XoYKjx"));
    expect(error.status).toBe(401);
    expect(eventForError(error)).toEqual({ type: "PROMPT_FOR_ACCESS_TOKEN" });
    expect(eventForError(error, { promptForAccessToken: false })).toEqual({
      type: "FAILED",
      error: "Unauthorized access",
    });
  });

  it("maps 403 the same way as 401", async () => {
    api.inject(SEARCH_PATH, { status: 403, body: { message: "Forbidden" } });
    const error = await failure(client("good-token").getByID("XoYKjx"));
    expect(eventForError(error)).toEqual({ type: "PROMPT_FOR_ACCESS_TOKEN" });
  });

  it("maps 404 to repository not found, naming the endpoint", async () => {
    const error = await failure(client("good-token", api.endpoint.replace("/api/v2", "/nope")).getByID("XoYKjx"));
    expect(error.kind).toBe("repository-not-found");
    const event = eventForError(error);
    expect(event.type).toBe("FAILED");
    expect(event.type === "FAILED" && event.error).toContain("Prismic repository not found");
    expect(event.type === "FAILED" && event.error).toContain("/nope");
  });

  it("says 'Ref could not be found.' for an unknown ref and 'No documents were returned' for an unknown id", async () => {
    const unknownRef = createPreviewClient({
      endpoint: api.endpoint,
      ref: "https://nzf2020.prismic.io/previews/gone",
      accessToken: "good-token",
      fetch,
    });
    expect(eventForError(await failure(unknownRef.getByID("XoYKjx")))).toEqual({
      type: "FAILED",
      error: "Ref could not be found.",
    });
    expect(eventForError(await failure(client("good-token").getByID("missing")))).toEqual({
      type: "FAILED",
      error: "No documents were returned",
    });
  });

  it("gives 400 the server's message and other statuses an invalid-response message", async () => {
    api.inject(SEARCH_PATH, { status: 400, body: { message: "unexpected field 'foo'" } });
    expect(eventForError(await failure(client("good-token").getByID("XoYKjx")))).toEqual({
      type: "FAILED",
      error: "unexpected field 'foo'",
    });
    api.inject(SEARCH_PATH, { status: 502, body: "Bad gateway" });
    const error = await failure(client("good-token").getByID("XoYKjx"));
    expect(error.kind).toBe("invalid-response");
    expect(error.message).toBe("An invalid API response was returned (HTTP 502).");
  });

  it("retries 429 after retry-after seconds, 1000 ms when absent", async () => {
    api.inject(SEARCH_PATH, { status: 429, retryAfter: 2 });
    api.inject(SEARCH_PATH, { status: 429 });
    await expect(client("good-token").getByID("XoYKjx")).resolves.toMatchObject({ id: "XoYKjx" });
    expect(waits()).toEqual([2000, 1000]);
  });

  it("gives up after the retry budget and reports the rate limit", async () => {
    let asked = 0;
    const always429 = async () => (asked++, new Response("", { status: 429 }));
    const response = await fetchRetrying429(always429, "http://x/");
    expect(response.status).toBe(429);
    expect(waits()).toEqual(Array(MAX_RATE_LIMIT_RETRIES).fill(1000));
    expect(asked).toBe(MAX_RATE_LIMIT_RETRIES + 1);
  });

  it("reports a network failure in words", async () => {
    const closed = await startPrismicStub({ documents: [] });
    const endpoint = closed.endpoint;
    await closed.stop();
    const error = await failure(client("good-token", endpoint).getByID("XoYKjx"));
    expect(error.kind).toBe("network");
    expect(eventForError(error)).toMatchObject({
      type: "FAILED",
      error: expect.stringContaining("could not be reached"),
    });
  });
});

describe("eventForError", () => {
  it("uses the generic message when there is none", () => {
    expect(eventForError(new Error(""))).toEqual({ type: "FAILED", error: "The preview could not be loaded." });
    expect(eventForError("a string")).toEqual({ type: "FAILED", error: "The preview could not be loaded." });
    expect(eventForError(new Error("Boom"))).toEqual({ type: "FAILED", error: "Boom" });
  });
});

describe("retryAfterMs", () => {
  it("reads seconds, HTTP dates, and defaults to 1000 ms", () => {
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs("")).toBe(1000);
    expect(retryAfterMs("soon")).toBe(1000);
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs("0.5")).toBe(500);
    const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:04 GMT", 1000, now)).toBe(4000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:27:00 GMT", 1000, now)).toBe(0);
  });
});
