/**
 * The contact page's enquiries and the e-mail updates, against the real service with an SMTP
 * catcher: stored, sent to donor care, acknowledged; consent recorded, double opt-in, unsubscribe
 * from the link; and the attacker's side first: a honeypot, rate limits per address and per IP,
 * bounded fields, one enquiry per Idempotency-Key, expired and reused links.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CONFIRM_TTL_MS, LIMITS } from "../../src/api/routes/contact.js";
import { updateNotice } from "../../src/receipts/contact-notices.js";
import { noticeMessage } from "../../src/receipts/notice.js";
import type { SmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";
import type { TestPaymentsService } from "../support/payments-service.js";
import { type MailingService, startMailingService } from "../support/mailing-service.js";

let clock = new Date("2026-12-03T01:00:00Z");
let service: TestPaymentsService;
let catcher: SmtpCatcher;
let mailing: MailingService;

beforeAll(async () => {
  mailing = await startMailingService({ start: clock, now: () => clock, settings: { SITE_URL: undefined } });
  ({ service, catcher } = mailing);
});
afterAll(async () => {
  await mailing?.stop();
});
beforeEach(async () => {
  clock = new Date("2026-12-03T01:00:00Z");
  await service.reset();
  catcher.clear();
});

const post = (path: string, body: unknown, key: string = randomUUID()) =>
  fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": key },
    body: JSON.stringify(body),
  });

const enquiry = (over: Record<string, unknown> = {}) => ({
  name: "Aisha Rahman",
  email: `aisha-${randomUUID()}@example.com`,
  topic: "zakat",
  message: "Is zakat due on my superannuation?\nThank you.",
  website: "",
  ...over,
});

const count = async (table: "enquiries" | "update_subscribers") =>
  Number(
    (
      await service.db
        .withTables<{ enquiries: { id: string }; update_subscribers: { email: string } }>()
        .selectFrom(table)
        .select((e) => e.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("POST /enquiries", () => {
  it("stores the enquiry, sends it to donor care and acknowledges it to the sender, once per key", async () => {
    const body = enquiry();
    const key = randomUUID();
    const res = await post("/enquiries", body, key);
    expect(res.status).toBe(202);
    const { enquiryId } = (await res.json()) as { enquiryId: string };
    expect(enquiryId).toMatch(/^ENQ-[0-9A-F]{8}$/);
    const again = await post("/enquiries", body, key);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(((await again.json()) as { enquiryId: string }).enquiryId).toBe(enquiryId);
    expect(await count("enquiries")).toBe(1);

    await catcher.waitFor(() => catcher.messages().length >= 2);
    const [toCare, ack] = catcher.messages();
    expect(toCare!.to).toBe("donorcare@nzf.org.au");
    expect(toCare!.subject).toBe(`Enquiry ${enquiryId}: A question about zakat`);
    expect(toCare!.text).toContain("Is zakat due on my superannuation? Thank you.");
    expect(toCare!.text).toContain(body.email);
    expect(ack!.to).toBe(body.email);
    expect(ack!.subject).toBe("We have received your message");
    expect(ack!.text).toContain(`Your enquiry number is ${enquiryId}.`);
    // The acknowledgement does not repeat the message: the form cannot relay spam to any address.
    expect(ack!.text).not.toContain("superannuation");
    expect(catcher.messages()).toHaveLength(2);
  });

  it("answers a filled honeypot as it answers a person, and keeps and sends nothing", async () => {
    const res = await post("/enquiries", enquiry({ website: "http://spam.example" }));
    expect(res.status).toBe(202);
    expect(await count("enquiries")).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(catcher.messages()).toEqual([]);
  });

  it("refuses bad fields with the field named", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ message: " " }, "message", "required"],
      [{ name: "Aisha\r\nBcc: victim@example.com" }, "name", "invalid"],
      [{ email: "not-an-address" }, "email", "invalid"],
      [{ email: "a@example.com\nBcc: b@example.com" }, "email", "invalid"],
      [{ topic: "__proto__" }, "topic", "invalid"],
      [{ message: "x".repeat(5_001) }, "message", "too_long"],
      [{ name: 42 }, "name", "required"],
    ];
    for (const [over, field, code] of cases) {
      const res = await post("/enquiries", enquiry(over));
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { error: { code: string; field: string; fields: { code: string }[] } };
      expect(body.error.code).toBe("validation_failed");
      expect(body.error.field).toBe(field);
      expect(body.error.fields[0]!.code).toBe(code);
    }
    expect((await post("/enquiries", [1, 2])).status).toBe(400);
    const noKey = await fetch(`${service.url}/enquiries`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(enquiry()),
    });
    expect(noKey.status).toBe(400);
    expect(await count("enquiries")).toBe(0);
  });

  it(`takes ${LIMITS.enquiryPerEmail} enquiries an hour from one address and ${LIMITS.enquiryPerIp} from one IP`, async () => {
    const email = `busy-${randomUUID()}@example.com`;
    for (let i = 0; i < LIMITS.enquiryPerEmail; i++)
      expect((await post("/enquiries", enquiry({ email }))).status).toBe(202);
    const limited = await post("/enquiries", enquiry({ email }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3600");
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // Other addresses from the same IP, up to its own limit.
    for (let i = LIMITS.enquiryPerEmail; i < LIMITS.enquiryPerIp; i++)
      expect((await post("/enquiries", enquiry())).status).toBe(202);
    expect((await post("/enquiries", enquiry())).status).toBe(429);
    expect(await count("enquiries")).toBe(LIMITS.enquiryPerIp);
    // An hour later the address may write again.
    clock = new Date(clock.getTime() + 61 * 60_000);
    expect((await post("/enquiries", enquiry({ email }))).status).toBe(202);
  });
});

describe("e-mail updates", () => {
  const signUp = (email: string, over: Record<string, unknown> = {}) =>
    post("/updates", {
      email,
      source: "footer",
      consentText: "Send me NZF's news and appeals by e-mail. I can unsubscribe at any time.",
      website: "",
      ...over,
    });
  const subscriber = (email: string) =>
    service.db
      .withTables<{
        update_subscribers: {
          email: string;
          status: string;
          consent_source: string;
          consent_text: string;
          consent_at: Date;
          unsubscribe_token: string;
        };
      }>()
      .selectFrom("update_subscribers")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

  it("records consent, confirms by the e-mailed link only, and unsubscribes from the update's link", async () => {
    const email = `Reader-${randomUUID()}@Example.com`;
    const res = await signUp(email);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ status: "confirmation_sent" });
    const row = await subscriber(email.toLowerCase());
    expect(row.status).toBe("pending");
    expect(row.consent_source).toBe("footer");
    expect(row.consent_text).toBe("Send me NZF's news and appeals by e-mail. I can unsubscribe at any time.");
    expect(new Date(row.consent_at).toISOString()).toBe(clock.toISOString());

    const mail = await catcher.waitFor((m) => m.subject === "Please confirm you want our e-mail updates");
    expect(mail.to).toBe(email.toLowerCase());
    const link = /Yes, send me updates: (\S+)/.exec(mail.text)![1]!;
    expect(link.startsWith(`${service.url}/updates/confirm?token=`)).toBe(true);
    const wrong = await fetch(`${service.url}/updates/confirm?token=not-the-token`);
    expect(wrong.status).toBe(404);
    const confirmed = await fetch(link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(await confirmed.text()).toContain("You will receive our updates");
    expect((await subscriber(email.toLowerCase())).status).toBe("confirmed");
    expect((await fetch(link)).status).toBe(404);

    // Signing up again once confirmed: the same answer, no new e-mail (the page cannot tell who is subscribed).
    expect((await signUp(email)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 200));
    expect(catcher.messages().filter((m) => m.subject.startsWith("Please confirm"))).toHaveLength(1);

    // Every update carries the unsubscribe link; the link's page asks first, then one press unsubscribes.
    const { unsubscribe_token } = await subscriber(email.toLowerCase());
    const unsubscribeUrl = `${service.url}/updates/unsubscribe?token=${unsubscribe_token}`;
    const update = updateNotice({
      key: "update:2027-ramadan",
      email: email.toLowerCase(),
      subject: "Ramadan 2027",
      heading: "Ramadan is near",
      paragraphs: ["Our appeal opens soon."],
      unsubscribeUrl,
      issuer: { name: "National Zakat Foundation Australia", abn: "51 824 753 556" },
    });
    const message = noticeMessage(update, { from: "NZF <updates@nzf.org.au>" });
    expect(message.unsubscribeUrl).toBe(unsubscribeUrl);
    expect(message.text).toContain(`Unsubscribe: ${unsubscribeUrl}`);
    expect(message.html).toContain(`href="${unsubscribeUrl.replace(/&/g, "&amp;")}"`);
    const asked = await fetch(unsubscribeUrl);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('<button type="submit">Unsubscribe</button>');
    expect((await subscriber(email.toLowerCase())).status).toBe("confirmed");
    const oneClick = await fetch(unsubscribeUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect((await subscriber(email.toLowerCase())).status).toBe("unsubscribed");
    expect((await fetch(`${service.url}/updates/unsubscribe?token=${"x".repeat(32)}`, { method: "POST" })).status).toBe(
      404,
    );
  });

  it("lets a confirmation link expire, ignores a honeypot, refuses an unknown source, and limits sign-ups per address", async () => {
    const email = `late-${randomUUID()}@example.com`;
    await signUp(email);
    const mail = await catcher.waitFor((m) => m.to === email);
    const link = /Yes, send me updates: (\S+)/.exec(mail.text)![1]!;
    clock = new Date(clock.getTime() + CONFIRM_TTL_MS + 60_000);
    expect((await fetch(link)).status).toBe(404);
    expect((await subscriber(email)).status).toBe("pending");

    const bot = `bot-${randomUUID()}@example.com`;
    expect((await signUp(bot, { website: "spam" })).status).toBe(202);
    expect(await count("update_subscribers")).toBe(1);

    const bad = await signUp(`x-${randomUUID()}@example.com`, { source: "popup" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe("source");

    // A victim's address cannot be flooded with confirmation e-mails.
    const victim = `victim-${randomUUID()}@example.com`;
    for (let i = 0; i < LIMITS.updatesPerEmail; i++) expect((await signUp(victim)).status).toBe(202);
    expect((await signUp(victim)).status).toBe(429);
  });
});
