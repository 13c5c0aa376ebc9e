/**
 * Watch mode's first build does not wait for the local payments API (issue 42): its port is bound
 * first, so the pages get its URL at once, and its database (seconds to make and migrate on a first
 * `npm start`) opens after the first build. A request that comes meanwhile waits and is answered by
 * the service (test/api/node-server-start.test.ts: the 503 when it cannot wait).
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApiDb } from "../../src/api/db/open.js";
import type { Logger } from "../../src/core/logger.js";
import { type LocalApis, startLocalApis } from "../../src/watch/local-apis.js";
import { openTestApiDb } from "../support/api-db.js";
import { holdDatabaseOpening, testDataDir } from "../support/api-db-open.js";
import { donationRequest } from "../support/donation-request.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
let apis: LocalApis | undefined;
// This file's migrated database: once let go, it opens at once, so a held request is never held long.
let database: ApiDb;
beforeAll(async () => {
  database = await openTestApiDb();
}, 60_000);
afterAll(() => database?.close());
afterEach(async () => {
  await apis?.stop();
  apis = undefined;
});

/** Sends a POST and resolves once its bytes are written, with the answer to come. */
function post(url: string, body: unknown): Promise<{ answer: Promise<{ status: number; body: string }> }> {
  return new Promise((sent, fail) => {
    const req = request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID(), origin: "http://127.0.0.1:4321" },
    });
    const answer = new Promise<{ status: number; body: string }>((ok, failAnswer) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c));
        res.on("end", () => ok({ status: res.statusCode ?? 0, body: text }));
      });
      req.on("error", failAnswer);
    });
    req.on("error", fail);
    req.end(JSON.stringify(body), () => sent({ answer }));
  });
}

describe("watch mode's local payments API on a first start", { timeout: 60_000 }, () => {
  it("gives the site its URL before the database opens, and answers a gift sent meanwhile", async () => {
    const dataDir = await testDataDir(database);
    const held = holdDatabaseOpening(dataDir);
    // Resolves with the database still held: the old order (the database first) never got here.
    apis = await startLocalApis(quiet, {}, 0, dataDir);
    let ready = false;
    void apis.ready.then(() => (ready = true));
    const url = apis.payments!.url;
    expect((apis.publicConfig.payments as { apiUrl: string }).apiUrl).toBe(url);
    await held.opening;
    expect(ready).toBe(false);
    // A gift sent while the service waits for its database: held, then answered by the service.
    const { answer } = await post(`${url}/donations`, donationRequest());
    expect(ready).toBe(false);
    held.release();
    const got = await answer;
    expect(got.status, got.body).toBe(201);
    expect(JSON.parse(got.body).reference).toMatch(/^NZF-/);
    await apis.ready;
    expect(ready).toBe(true);
  });
});
