/**
 * One signed-in user must not be able to stall the account API. Issue 38 measured, before these
 * limits: 30 KB of repeated fields took 11.9 s of CPU; 290 aliases over 1,000 donations answered
 * 70.8 MB in 12.9 s; three at once made every other request wait 23 s. Each is now refused by its
 * size (the service's one 16 KiB body cap) or while parsing or validating, before anything runs.
 * On the payments service, as deployed (test/support/account-api-harness.ts). CPU is measured with process.cpuUsage() (the server
 * runs in this process), never wall-clock time, which a loaded machine stretches.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_GRAPHQL_BODY_BYTES } from "../../src/account-api/graphql.js";
import { MAX_BODY_BYTES } from "../../src/api/errors.js";
import { type Account, type Harness, type Raw, raw, startAccountHarness } from "../support/account-api-harness.js";

let h: Harness;
let donor: Account;
const DONATIONS = 1_000;

/** The process's CPU time (user + system) spent while `run` ran, in milliseconds. */
async function cpuMs<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

const normal = () => h.gql("{ donations { id fund totalCents } }", {}, donor.access);

function expectRefused(res: Raw, code: RegExp) {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.json.data).toBeUndefined();
  expect(res.json.errors[0].message, res.text.slice(0, 300)).toMatch(code);
  expect(res.text.length).toBeLessThan(4_000);
}

const REPEATED = `{ donations { ${"id ".repeat(10_000)}} }`;
/** Under the body cap, so the token limit is what refuses it. */
const REPEATED_UNDER_CAP = `{ donations { ${"id ".repeat(5_000)}} }`;
const ALIASES = `{ ${Array.from({ length: 290 }, (_, i) => `a${i}: donations { id reference }`).join(" ")} }`;
const DEEP = `{ donations { receipt { ${"number { ".repeat(40)}x${" }".repeat(40)} } } }`;

beforeAll(async () => {
  h = await startAccountHarness();
  donor = await h.signUp("many@example.com");
  // 1,000 paid one-off gifts of the donor's, as the service stores them (a donation and the charge
  // its signed webhook recorded), written in bulk.
  const made = new Date("2026-07-01T02:00:00Z");
  const rows = Array.from({ length: DONATIONS }, (_, i) => ({
    id: `don_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
    reference: `NZF-${String(i).padStart(4, "0")}-TEST`,
    idempotency_key: randomUUID(),
    fund: "sadaqah",
    frequency: "once",
    intent_type: "payment" as const,
    amount_cents: 5_000,
    fee_cents: 0,
    total_cents: 5_000,
    schedule_total_cents: 5_000,
    open_ended: false,
    schedule: JSON.stringify([{ date: "2026-07-01", amountCents: 5_000 }]),
    status: "succeeded" as const,
    donor_first_name: "Many",
    donor_last_name: "Gifts",
    donor_email: "many@example.com",
    donor_phone: "0412 345 678",
    cover_fees: false,
    client_secret: "pi_secret",
    user_sub: donor.sub,
    created_at: made,
    updated_at: made,
  }));
  await h.service.db.insertInto("donations").values(rows).execute();
  await h.service.db
    .insertInto("charges")
    .values(
      rows.map((r) => ({
        id: `pi_${r.id}`,
        donation_id: r.id,
        amount_cents: 5_000,
        status: "succeeded",
        charged_at: made,
      })),
    )
    .execute();
  // Warm: the first request compiles the schema's plan and loads the pool's keys.
  expect((await normal()).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe("the account API's limits", () => {
  it("sizes the attacks as issue 38 did", () => {
    expect(REPEATED.length).toBeGreaterThan(30_000);
    expect(ALIASES.split(":").length - 1).toBe(290);
    // Both under the service's body cap, so GraphQL's own limits are what refuse them.
    expect(REPEATED_UNDER_CAP.length).toBeLessThan(MAX_BODY_BYTES);
    expect(ALIASES.length).toBeLessThan(MAX_BODY_BYTES);
  });

  it("refuses 30 KB of repeated fields by its size, before parsing, in well under 100 ms of CPU", async () => {
    const { result, ms } = await cpuMs(() => h.gql(REPEATED, {}, donor.access));
    expect(result.status).toBe(413);
    expect(result.json.errors[0].extensions.code).toBe("BODY_TOO_LARGE");
    console.log(`30 KB of repeated fields: ${result.status} after ${ms.toFixed(1)} ms of CPU`);
    expect(ms).toBeLessThan(100);
  });

  it("refuses 15 KB of repeated fields while parsing, in well under 100 ms of CPU", async () => {
    const { result, ms } = await cpuMs(() => h.gql(REPEATED_UNDER_CAP, {}, donor.access));
    expectRefused(result, /Token limit/);
    console.log(`15 KB of repeated fields: ${result.status} after ${ms.toFixed(1)} ms of CPU`);
    expect(ms).toBeLessThan(100);
  });

  it("refuses 290 aliases over 1,000 donations before running them, in well under 100 ms of CPU", async () => {
    const { result, ms } = await cpuMs(() => h.gql(ALIASES, {}, donor.access));
    expectRefused(result, /Token limit|Aliases limit/);
    console.log(`290 aliases: ${result.status} after ${ms.toFixed(1)} ms of CPU`);
    expect(ms).toBeLessThan(100);
    // Fewer aliases, within the token limit: the alias limit itself refuses.
    const nine = `{ ${Array.from({ length: 9 }, (_, i) => `a${i}: donations { id }`).join(" ")} }`;
    expectRefused(await h.gql(nine, {}, donor.access), /Aliases limit/);
  });

  it("refuses deep nesting, in well under 100 ms of CPU", async () => {
    const { result, ms } = await cpuMs(() => h.gql(DEEP, {}, donor.access));
    expectRefused(result, /Query depth limit|Query Cost limit/);
    console.log(`deep nesting: ${result.status} after ${ms.toFixed(1)} ms of CPU`);
    expect(ms).toBeLessThan(100);
  });

  it("refuses too many directives and too costly a query", async () => {
    const directives = `{ me { id ${"@include(if: true) ".repeat(11)}} }`;
    expectRefused(await h.gql(directives, {}, donor.access), /Directives limit/);
    const costly = `{ ${Array.from({ length: 8 }, (_, i) => `a${i}: taxSummary(financialYear: 2026) { receipts { number donationId donorName fund date totalCents taxDeductible financialYear } funds { fund totalCents count } }`).join(" ")} }`;
    expectRefused(await h.gql(costly, {}, donor.access), /Query Cost limit|Token limit/);
  });

  it("one body cap for the whole service: the account API's is the service's 16 KiB", async () => {
    expect(MAX_GRAPHQL_BODY_BYTES).toBe(MAX_BODY_BYTES);
    const query = (n: number) => JSON.stringify({ query: `{ me { ${"id ".repeat(n)}} }` });
    const json = { "content-type": "application/json", accept: "application/graphql-response+json" };
    const auth = { ...json, authorization: `Bearer ${donor.access}` };
    // Just over the cap: GraphQL's 413 for a donor, a guest's 401 before any body is read.
    const over = query(Math.ceil(MAX_BODY_BYTES / 3));
    expect(Buffer.byteLength(over)).toBeGreaterThan(MAX_BODY_BYTES);
    const big = await raw(h.graphqlUrl, "POST", auth, over);
    expect(big.status).toBe(413);
    expect(big.json.errors[0].extensions.code).toBe("BODY_TOO_LARGE");
    const guest = await raw(h.graphqlUrl, "POST", json, over);
    expect(guest.status).toBe(401);
    expect(guest.json.errors[0].extensions.code).toBe("UNAUTHENTICATED");
    // Whatever Content-Length says: a chunked body is counted as it arrives.
    const chunked = await raw(h.graphqlUrl, "POST", { ...auth, "transfer-encoding": "chunked" }, over);
    expect(chunked.status).toBe(413);
    // Just under it: read and parsed (the token limit refuses this one, not the size).
    const under = query(Math.floor((MAX_BODY_BYTES - 40) / 3));
    expect(Buffer.byteLength(under)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expectRefused(await raw(h.graphqlUrl, "POST", auth, under), /Token limit/);
    // The rest of the service keeps its own cap.
    const donation = await raw(
      `${h.service.url}/donations`,
      "POST",
      { ...json, "idempotency-key": randomUUID() },
      over,
    );
    expect(donation.status).toBe(413);
    expect(donation.json.error.code).toBe("body_too_large");
  });

  it("still answers a normal request over 1,000 donations while three attacks arrive at once", async () => {
    const { result, ms } = await cpuMs(() =>
      Promise.all([
        h.gql(REPEATED, {}, donor.access),
        h.gql(ALIASES, {}, donor.access),
        h.gql(DEEP, {}, donor.access),
        normal(),
      ]),
    );
    const [repeated, aliases, deep, ok] = result;
    expect([repeated!.status, aliases!.status, deep!.status]).toEqual([413, 400, 400]);
    expect(ok!.status).toBe(200);
    expect(ok!.json.data.donations).toHaveLength(DONATIONS);
    console.log(`three attacks and one normal request over ${DONATIONS} donations: ${ms.toFixed(1)} ms of CPU in all`);
    // Generous: the normal answer alone is about 100 KB of JSON.
    expect(ms).toBeLessThan(1_000);
    expect(h.logged.filter((l) => l.startsWith("error"))).toEqual([]);
  });
});
