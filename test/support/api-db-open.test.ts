/**
 * testDataDir called twice at once (as test/api/paypal/without-settings.test.ts does for its two
 * services) names both databases: neither call is given the real src/api/db/open.js, which vitest's
 * mocker answers to the second of two imports of a mocked module started together from one module
 * (api-db-open.ts). Before the fix this failed every time, alone or after other files.
 */
import { afterAll, expect, it } from "vitest";
import type { ApiDb } from "../../src/api/db/open.js";
import { startApiServer } from "../../src/api/node-server.js";
import { openTestApiDb } from "./api-db.js";
import { testDataDir } from "./api-db-open.js";

const opened: ApiDb[] = [];
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
});

it("names two test databases asked for at the same moment, and the service opens each by its name", async () => {
  opened.push(...(await Promise.all([openTestApiDb(), openTestApiDb()])));
  const names = await Promise.all(opened.map((database) => testDataDir(database)));
  expect(new Set(names).size).toBe(2);
  for (const [index, dataDir] of names.entries()) {
    const server = await startApiServer({ port: 0, dataDir, env: {} });
    try {
      expect(server.deps.db).toBe(opened[index]!.db);
    } finally {
      await server.stop();
    }
  }
});
