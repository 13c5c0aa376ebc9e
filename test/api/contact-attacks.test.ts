/**
 * The attacker's side of the enquiry and updates endpoints, as the site's forms call them: a huge
 * body, header injection through every field that reaches an e-mail, flooding (one key sent many
 * times at once, many addresses from one IP), and a sign-up without consent. Each is refused with
 * the contract's coded error (or absorbed), nothing is stored or sent that should not be, and the
 * service answers the next honest request.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/api/errors.js";
import { LIMITS } from "../../src/api/routes/contact.js";
import { startMailingService, type MailingService } from "../support/mailing-service.js";

const START = new Date("2026-12-03T01:00:00Z");
let mailing: MailingService;

beforeAll(async () => {
  mailing = await startMailingService({ start: START });
});
afterAll(async () => {
  await mailing?.stop();
});
beforeEach(async () => {
  await mailing.reset(START);
});

const post = (path: string, body: unknown, key: string = randomUUID()) =>
  fetch(`${mailing.service.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": key },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; field?: string; fields?: { field: string; code: string }[] } }).error;
const enquiry = (over: Record<string, unknown> = {}) => ({
  name: "Aisha Rahman",
  email: `aisha-${randomUUID()}@example.com`,
  topic: "general",
  message: "Salaam, a question.",
  website: "",
  ...over,
});
const signUp = (over: Record<string, unknown> = {}) => ({
  email: `reader-${randomUUID()}@example.com`,
  source: "footer",
  consentText: "Send me the foundation's news and appeals by e-mail. I can unsubscribe at any time.",
  website: "",
  ...over,
});
const rows = async (table: "enquiries" | "update_subscribers") =>
  Number(
    (
      await mailing.service.db
        .withTables<{ enquiries: { id: string }; update_subscribers: { email: string } }>()
        .selectFrom(table)
        .select((e) => e.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const settle = () => new Promise((r) => setTimeout(r, 200));

describe("a huge body", () => {
  it(`is refused at ${MAX_BODY_BYTES} bytes with body_too_large, before anything is stored, and the service stays up`, async () => {
    const huge = enquiry({ message: "x".repeat(MAX_BODY_BYTES) });
    for (const path of ["/enquiries", "/updates"]) {
      const res = await post(path, huge);
      expect(res.status, path).toBe(413);
      expect((await errorOf(res)).code).toBe("body_too_large");
    }
    // A megabyte, several times over: still a coded refusal each time.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post("/enquiries", JSON.stringify({ message: "y".repeat(1 << 20) }))),
    );
    expect(answers.map((r) => r.status)).toEqual([413, 413, 413, 413]);
    expect(await rows("enquiries")).toBe(0);
    expect((await post("/enquiries", enquiry())).status).toBe(202);
  });
});

describe("header injection through the fields that reach an e-mail", () => {
  it("refuses line breaks in one-line fields (name, e-mail, consent words), each field named", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["/enquiries", enquiry({ name: "Aisha\r\nBcc: victim@example.com" }), "name"],
      ["/enquiries", enquiry({ name: "Aisha\u2028Bcc: victim@example.com" }), "name"],
      ["/enquiries", enquiry({ email: "a@example.com\r\nBcc: victim@example.com" }), "email"],
      ["/enquiries", enquiry({ email: "a@example.com, victim@example.com" }), "email"],
      ["/enquiries", enquiry({ email: '"Victim" <victim@example.com>' }), "email"],
      ["/updates", signUp({ email: "a@example.com\nBcc: victim@example.com" }), "email"],
      ["/updates", signUp({ email: "a@example.com;victim@example.com" }), "email"],
      ["/updates", signUp({ consentText: "Yes\r\nBcc: victim@example.com" }), "consentText"],
    ];
    for (const [path, body, field] of cases) {
      const res = await post(path, body);
      expect(res.status, `${path} ${field}`).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("validation_failed");
      expect(error.field).toBe(field);
    }
    expect(await rows("enquiries")).toBe(0);
    expect(await rows("update_subscribers")).toBe(0);
    await settle();
    expect(mailing.catcher.messages()).toEqual([]);
  });

  it("keeps a message's own line breaks in the body: the e-mails go to donor care and the sender only", async () => {
    const sender = `sender-${randomUUID()}@example.com`;
    const res = await post(
      "/enquiries",
      enquiry({ email: sender, message: "Hello\r\nBcc: victim@example.com\r\nSubject: You won\r\n\r\nbody" }),
    );
    expect(res.status).toBe(202);
    await mailing.catcher.waitFor(() => mailing.catcher.messages().length >= 2);
    await settle();
    const sent = mailing.catcher.messages();
    expect(sent.flatMap((m) => m.envelope.to).sort()).toEqual(["donorcare@nzf.org.au", sender].sort());
    expect(sent.map((m) => m.subject)).not.toContain("You won");
  });
});

describe("flooding", () => {
  it("one Idempotency-Key sent 8 times at once is one enquiry and one pair of e-mails", async () => {
    const key = randomUUID();
    const body = enquiry();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post("/enquiries", body, key)));
    const ids = new Set<string>();
    for (const res of answers) {
      expect(res.status).toBe(202);
      ids.add(((await res.json()) as { enquiryId: string }).enquiryId);
    }
    expect(ids.size).toBe(1);
    expect(await rows("enquiries")).toBe(1);
    await mailing.catcher.waitFor(() => mailing.catcher.messages().length >= 2);
    await settle();
    expect(mailing.catcher.messages()).toHaveLength(2);
  });

  it(`takes ${LIMITS.updatesPerIp} sign-ups an hour from one IP, then 429 rate_limited with Retry-After`, async () => {
    for (let i = 0; i < LIMITS.updatesPerIp; i++) expect((await post("/updates", signUp())).status).toBe(202);
    const limited = await post("/updates", signUp());
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3600");
    expect((await errorOf(limited)).code).toBe("rate_limited");
    expect(await rows("update_subscribers")).toBe(LIMITS.updatesPerIp);
  });
});

describe("a sign-up without consent", () => {
  it("is refused, consentText named: missing, empty, blank or not text; nothing stored, nothing sent", async () => {
    for (const consentText of [undefined, "", "   ", 1, ["Yes"], null]) {
      const res = await post("/updates", signUp({ consentText }));
      expect(res.status, JSON.stringify(consentText)).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("validation_failed");
      expect(error.field).toBe("consentText");
      expect(error.fields?.[0]?.code).toBe("required");
    }
    const noSource = await post("/updates", signUp({ source: undefined }));
    expect((await errorOf(noSource)).field).toBe("source");
    expect(await rows("update_subscribers")).toBe(0);
    await settle();
    expect(mailing.catcher.messages()).toEqual([]);
  });
});
