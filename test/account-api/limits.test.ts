/**
 * One signed-in user must not be able to stall the account API. Issue 38 measured, before these
 * limits: 30 KB of repeated fields took 11.9 s of CPU; 290 aliases over 1,000 donations answered
 * 70.8 MB in 12.9 s; three at once made every other request wait 23 s. Each is now refused while
 * parsing or validating, before anything runs. CPU is measured with process.cpuUsage() (the server
 * runs in this process), never wall-clock time, which a loaded machine stretches.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, type Harness, type Raw, startAccountHarness } from "../support/account-api-harness.js";

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
const ALIASES = `{ ${Array.from({ length: 290 }, (_, i) => `a${i}: donations { id reference fund receipt { number } }`).join(" ")} }`;
const DEEP = `{ donations { receipt { ${"number { ".repeat(40)}x${" }".repeat(40)} } } }`;

beforeAll(async () => {
  h = await startAccountHarness();
  donor = await h.signUp("many@example.com");
  for (let i = 0; i < DONATIONS; i++) {
    const donationId = `don_${randomUUID()}`;
    h.store.record({
      created: {
        donationId,
        reference: `NZF-${String(i).padStart(4, "0")}-TEST`,
        currency: "AUD",
        frequency: "once",
        amountCents: 5_000,
        feeCents: 0,
        totalCents: 5_000,
        schedule: [{ date: "2026-07-01", amountCents: 5_000 }],
        openEnded: false,
        scheduleTotalCents: 5_000,
        clientSecret: "",
        intentType: "payment",
      },
      request: {
        fund: "sadaqah",
        amountCents: 5_000,
        currency: "AUD",
        frequency: "once",
        anonymous: false,
        coverFees: false,
        donor: { firstName: "Many", lastName: "Gifts", email: "many@example.com", phone: "0412 345 678" },
      },
      donor: { sub: donor.sub },
      status: () => "succeeded",
    });
  }
  // Warm: the first request compiles the schema's plan and loads the pool's keys.
  expect((await normal()).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await h?.stop();
});

describe("the account API's limits", () => {
  it("sizes the attacks as issue 38 did", () => {
    expect(REPEATED.length).toBeGreaterThan(30_000);
    expect(REPEATED.length).toBeLessThan(32 * 1024);
    expect(ALIASES.split(":").length - 1).toBe(290);
  });

  it("refuses 30 KB of repeated fields while parsing, in well under 100 ms of CPU", async () => {
    const { result, ms } = await cpuMs(() => h.gql(REPEATED, {}, donor.access));
    expectRefused(result, /Token limit/);
    console.log(`30 KB of repeated fields: ${result.status} after ${ms.toFixed(1)} ms of CPU`);
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

  it("refuses a body over 32 KiB with 413, whatever Content-Length says", async () => {
    const big = await h.gql(`{ donations { ${"id ".repeat(12_000)}} }`, {}, donor.access);
    expect(big.status).toBe(413);
    expect(big.json.errors[0].extensions.code).toBe("BODY_TOO_LARGE");
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
    expect([repeated!.status, aliases!.status, deep!.status]).toEqual([400, 400, 400]);
    expect(ok!.status).toBe(200);
    expect(ok!.json.data.donations).toHaveLength(DONATIONS);
    console.log(`three attacks and one normal request over ${DONATIONS} donations: ${ms.toFixed(1)} ms of CPU in all`);
    // Generous: the normal answer alone is about 100 KB of JSON.
    expect(ms).toBeLessThan(1_000);
    expect(h.logged.filter((l) => l.startsWith("error"))).toEqual([]);
  });
});
