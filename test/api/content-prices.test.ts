/**
 * The service charges the content's prices: an editor's change needs no code change, a page built
 * before the change is honoured for the grace period, and a failed read keeps the last good prices.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createRulesSource,
  PRICE_GRACE_MS,
  snapshotLoader,
  type ContentDocument,
} from "../../src/api/fund-rules-source.js";
import { readSnapshot } from "../../src/content/snapshot.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { donationRequest } from "../support/donation-request.js";
import { startTestPaymentsService, type TestPaymentsService } from "../support/payments-service.js";
import { setServiceClock } from "../support/service-clock.js";

const sample = (await readSnapshot(join(PROJECT_ROOT, "content-cache", "sample", "snapshot.json")))
  .documents as unknown as ContentDocument[];
let documents: ContentDocument[] = sample;
let failing = false;
let clock = new Date("2026-11-27T00:00:00Z");
await setServiceClock(() => clock);
const source = createRulesSource({
  load: async () => {
    if (failing) throw new Error("Prismic is down");
    return documents;
  },
});
let service: TestPaymentsService;

beforeAll(async () => {
  await source.ready;
  service = await startTestPaymentsService();
  // The prices from this file's source (the service reads its rules when a gift is checked).
  service.deps.rulesFor = source.rulesFor;
  service.deps.rulesForRequest = source.rulesForRequest;
});
afterAll(() => service?.stop());

const lamb = (unitCents: number) =>
  donationRequest({
    fund: "qurban",
    amountCents: unitCents,
    quantity: { count: 1, unitCents, optionId: "lamb-australia" },
  });
const post = async (body: unknown) => {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { error?: { fields?: { code: string }[] } } };
};

describe("prices from the content", () => {
  it("reads the snapshot the build uses: the sample's prices", async () => {
    const docs = await snapshotLoader(join(PROJECT_ROOT, "content-cache"), "no-such-repository")();
    expect(docs.length).toBeGreaterThan(0);
    expect(source.rulesFor("qurban").quantity!.options!.find((o) => o.code === "lamb-australia")!.unitCents).toBe(
      45_000,
    );
    expect((await post(lamb(45_000))).status).toBe(201);
  });

  it("charges an editor's new price at once, honours the old one for the grace period, then refuses it", async () => {
    documents = sample.map((d) =>
      d.type === "qurban"
        ? {
            ...d,
            data: {
              ...d.data,
              animal_options: (d.data.animal_options as Record<string, unknown>[]).map((o) =>
                o.code === "lamb-australia" ? { ...o, option_price: 500 } : o,
              ),
            },
          }
        : d,
    );
    await source.refresh();
    expect((await post(lamb(50_000))).status).toBe(201);
    expect((await post(lamb(45_000))).status).toBe(201);
    clock = new Date(clock.getTime() + PRICE_GRACE_MS + 1000);
    const late = await post(lamb(45_000));
    expect(late.status).toBe(400);
    expect(late.body.error!.fields!.map((f) => f.code)).toContain("price_changed");
    expect((await post(lamb(40_000))).status).toBe(400);
  });

  it("keeps the last good prices when the content cannot be read", async () => {
    failing = true;
    await source.refresh();
    expect(source.rulesFor("qurban").quantity!.options!.find((o) => o.code === "lamb-australia")!.unitCents).toBe(
      50_000,
    );
    failing = false;
  });
});
