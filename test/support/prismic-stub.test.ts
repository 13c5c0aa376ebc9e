/**
 * The stub is only useful if the real `@prismicio/client` accepts it as the Prismic API: these
 * tests drive the real client over real HTTP and check what it gets back.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as prismic from "@prismicio/client";
import {
  makeDocument,
  makeDocuments,
  startPrismicStub,
  SEARCH_PATH,
  ROOT_PATH,
  type PrismicStub,
} from "./prismic-stub.js";

let stub: PrismicStub | undefined;
afterEach(async () => {
  await stub?.stop();
  stub = undefined;
});

function clientFor(s: PrismicStub, accessToken?: string): prismic.Client {
  return prismic.createClient("nzf-test", { documentAPIEndpoint: s.endpoint, accessToken });
}

describe("prismic stub with the real client", () => {
  it("serves the repository root with the master ref, releases and languages", async () => {
    stub = await startPrismicStub({
      documents: [
        makeDocument({ id: "a", type: "home_page" }),
        makeDocument({ id: "b", type: "home_page", lang: "ar-ae" }),
      ],
      ref: "master-1",
    });
    stub.addPreviewRef("release-ref", [], "Ramadan release");
    const repo = await clientFor(stub).getRepository();
    expect(repo.refs.find((r) => r.isMasterRef)?.ref).toBe("master-1");
    expect(repo.refs.map((r) => r.label)).toEqual(["Master", "Ramadan release"]);
    expect(repo.languages.map((l) => [l.id, l.is_master])).toEqual([
      ["en-au", true],
      ["ar-ae", false],
    ]);
    expect(repo.types).toEqual({ home_page: "home page" });
    expect(repo.forms.everything?.action).toBe(`${stub.origin}${SEARCH_PATH}`);
  });

  it("pages through 250 documents with dangerouslyGetAll (pages of 100, 3 requests)", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(250) });
    const docs = await clientFor(stub).dangerouslyGetAll({ lang: "*" });
    expect(docs).toHaveLength(250);
    expect(new Set(docs.map((d) => d.id)).size).toBe(250);
    const searches = stub.requestsTo(SEARCH_PATH);
    expect(searches.map((r) => [r.query.page ?? "1", r.query.pageSize, r.query.ref])).toEqual([
      ["1", "100", stub.ref],
      ["2", "100", stub.ref],
      ["3", "100", stub.ref],
    ]);
  });

  it("answers getByUID, getByID, getAllByIDs, getByType and tag filters", async () => {
    stub = await startPrismicStub({
      documents: [
        makeDocument({ id: "c1", type: "case", uid: "water", tags: ["featured"] }),
        makeDocument({ id: "c2", type: "case", uid: "food" }),
        makeDocument({ id: "p1", type: "program", uid: "water" }),
        makeDocument({ id: "c3", type: "case", uid: "water", lang: "ar-ae" }),
      ],
    });
    const client = clientFor(stub);
    expect((await client.getByUID("program", "water")).id).toBe("p1");
    expect((await client.getByUID("case", "water", { lang: "ar-ae" })).id).toBe("c3");
    expect((await client.getByID("c2")).uid).toBe("food");
    expect((await client.getAllByIDs(["c1", "p1"])).map((d) => d.id)).toEqual(["c1", "p1"]);
    expect((await client.getAllByType("case", { lang: "*" })).map((d) => d.id)).toEqual(["c1", "c2", "c3"]);
    expect((await client.getAllByTag("featured")).map((d) => d.id)).toEqual(["c1"]);
    expect(
      (await client.get({ filters: [prismic.filter.any("document.type", ["program", "nothing"])] })).results.map(
        (d) => d.id,
      ),
    ).toEqual(["p1"]);
    await expect(client.getByUID("case", "missing")).rejects.toThrow("No documents were returned");
  });

  it("orders results and fills url from routes", async () => {
    stub = await startPrismicStub({
      documents: [
        makeDocument({ id: "b1", type: "blog_article", uid: "older", date: "2023-01-01T00:00:00+0000" }),
        makeDocument({ id: "b2", type: "blog_article", uid: "newer", date: "2024-06-01T00:00:00+0000" }),
      ],
    });
    const response = await clientFor(stub).get({
      orderings: [{ field: "document.first_publication_date", direction: "desc" }],
      routes: [{ type: "blog_article", path: "/blog/:uid" }],
    });
    expect(response.results.map((d) => [d.id, d.url])).toEqual([
      ["b2", "/blog/newer"],
      ["b1", "/blog/older"],
    ]);
  });

  it("rejects unsupported predicates with a 400 parsing error carrying the message", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(2) });
    const error = await clientFor(stub)
      .get({ filters: [prismic.filter.fulltext("document", "zakat")] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(prismic.ParsingError);
    expect((error as Error).message).toMatch(/fulltext/);
  });

  it("keeps an old ref queryable after a publish and 404s a dropped ref with the master ref in the message", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(3), ref: "v1" });
    const v2 = stub.setDocuments(makeDocuments(5));
    const client = clientFor(stub);
    expect((await client.get({ ref: "v1" })).total_results_size).toBe(3);
    expect((await client.get()).total_results_size).toBe(5);
    stub.dropRef("v1");
    const response = await fetch(`${stub.endpoint}/documents/search?ref=v1`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: "api_notfound_error",
      message: expect.stringContaining(`Master ref is: ${v2}`),
    });
  });

  it("serves preview refs with their own documents", async () => {
    stub = await startPrismicStub({
      documents: makeDocuments(1),
      previewRefs: { "preview-token": [makeDocument({ id: "draft", type: "home_page" })] },
    });
    expect((await clientFor(stub).get({ ref: "preview-token" })).results.map((d) => d.id)).toEqual(["draft"]);
  });

  it("requires the access token when configured (401 → ForbiddenError)", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(1), accessToken: "secret" });
    await expect(clientFor(stub).getRepository()).rejects.toBeInstanceOf(prismic.ForbiddenError);
    await expect(clientFor(stub, "wrong").getRepository()).rejects.toBeInstanceOf(prismic.ForbiddenError);
    expect(stub.requests.map((r) => r.status)).toEqual([401, 401]);
    const docs = await clientFor(stub, "secret").dangerouslyGetAll();
    expect(docs).toHaveLength(1);
    expect(stub.requestsTo(SEARCH_PATH)[0]!.query.access_token).toBe("secret");
  });

  it("injects faults: 404 root → RepositoryNotFoundError, 500 → PrismicError, in order and only as often as asked", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(1) });
    stub.inject(ROOT_PATH, { status: 404 });
    stub.inject(ROOT_PATH, { status: 500 });
    await expect(clientFor(stub).getRepository()).rejects.toBeInstanceOf(prismic.RepositoryNotFoundError);
    await expect(clientFor(stub).getRepository()).rejects.toThrow("An invalid API response was returned");
    expect((await clientFor(stub).getRepository()).refs).toHaveLength(1);
    expect(stub.requests.map((r) => r.status)).toEqual([404, 500, 200]);
  });

  it("injects 429 with retry-after, slow responses and destroyed sockets", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(1) });
    stub.inject(ROOT_PATH, { status: 429, retryAfter: 2 });
    stub.inject(ROOT_PATH, { delayMs: 150 });
    stub.inject(ROOT_PATH, { destroy: true });
    const tooMany = await fetch(stub.endpoint);
    expect([tooMany.status, tooMany.headers.get("retry-after")]).toEqual([429, "2"]);
    const started = performance.now();
    expect((await fetch(stub.endpoint)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await expect(fetch(stub.endpoint)).rejects.toThrow(TypeError);
    expect((await fetch(stub.endpoint)).status).toBe(200);
    expect(stub.requests.map((r) => r.status)).toEqual([429, 200, "destroyed", 200]);
  });

  it("rejects page sizes over 100 like the real API", async () => {
    stub = await startPrismicStub({ documents: makeDocuments(1) });
    const response = await fetch(`${stub.endpoint}/documents/search?ref=${stub.ref}&pageSize=101`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/pageSize/);
  });
});
