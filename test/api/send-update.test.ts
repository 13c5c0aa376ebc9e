/**
 * The updates sender against the real service and an SMTP catcher: only confirmed subscribers get
 * an update, each once however often it is sent, each with their own working unsubscribe link;
 * an update that would make a broken e-mail is refused with a coded error before anything is sent.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sendUpdate, type Update } from "../../src/api/mail/send-update.js";
import { NzfError } from "../../src/core/errors.js";
import { startMailingService, type MailingService } from "../support/mailing-service.js";

const START = new Date("2027-01-20T01:00:00Z");
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

type Status = "pending" | "confirmed" | "unsubscribed";
async function subscriber(status: Status): Promise<string> {
  const email = `${status}-${randomUUID()}@example.com`;
  await mailing.service.db
    .withTables<{ update_subscribers: Record<string, unknown> }>()
    .insertInto("update_subscribers")
    .values({
      email,
      status,
      consent_at: START,
      consent_source: "footer",
      consent_text: "Send me the foundation's news and appeals by e-mail. I can unsubscribe at any time.",
      confirm_token_hash: null,
      confirmed_at: status === "confirmed" ? START : null,
      unsubscribe_token: randomBytes(24).toString("base64url"),
      unsubscribed_at: status === "unsubscribed" ? START : null,
    })
    .execute();
  return email;
}

const ramadan: Update = {
  id: "2027-ramadan",
  subject: "Ramadan 2027: our appeal opens",
  heading: "Ramadan is near",
  paragraphs: ["Our appeal opens on 8 February.", "Every gift reaches people in Australia."],
};
const send = (update: Update = ramadan) =>
  sendUpdate(mailing.service.db, mailing.service.deps.receipts!, update, { serviceUrl: `${mailing.service.url}/` });
const settle = () => new Promise((r) => setTimeout(r, 200));

describe("sendUpdate", () => {
  it("reaches confirmed subscribers only, once each however often it runs, each with a working unsubscribe link", async () => {
    const [a, b] = [await subscriber("confirmed"), await subscriber("confirmed")];
    await subscriber("pending");
    await subscriber("unsubscribed");
    expect(await send()).toEqual({ queued: 2, subscribers: 2 });
    await mailing.catcher.waitFor(() => mailing.catcher.messages().length >= 2);
    expect(await send()).toEqual({ queued: 0, subscribers: 2 });
    await settle();
    const mails = mailing.catcher.messages();
    expect(mails.map((m) => m.to).sort()).toEqual([a, b].sort());
    const toA = mails.find((m) => m.to === a)!;
    expect(toA.subject).toBe("Ramadan 2027: our appeal opens");
    expect(toA.text).toContain("Every gift reaches people in Australia.");
    expect(toA.text).toContain("ABN 51 824 753 556");
    const link = /Unsubscribe: (\S+)/.exec(toA.text)![1]!;
    expect(link.startsWith(`${mailing.service.url}/updates/unsubscribe?token=`)).toBe(true);
    expect(toA.html).toContain(`href="${link.replace(/&/g, "&amp;")}"`);
    // The other subscriber's link is their own.
    expect(/Unsubscribe: (\S+)/.exec(mails.find((m) => m.to === b)!.text)![1]).not.toBe(link);

    // A's link unsubscribes A: the next update reaches B only.
    expect((await fetch(link, { method: "POST" })).status).toBe(200);
    mailing.catcher.clear();
    expect(await send({ ...ramadan, id: "2027-eid" })).toEqual({ queued: 1, subscribers: 1 });
    await mailing.catcher.waitFor((m) => m.to === b);
    await settle();
    expect(mailing.catcher.messages().map((m) => m.to)).toEqual([b]);
  });

  it("refuses an update that would make a broken e-mail, coded, before sending anything", async () => {
    await subscriber("confirmed");
    const bad: [Partial<Update>, RegExp][] = [
      [{ id: "Ramadan 2027" }, /its id must be/],
      [{ subject: "Ramadan\r\nBcc: victim@example.com" }, /subject must be one line/],
      [{ heading: " " }, /heading is empty/],
      [{ paragraphs: [] }, /no paragraph/],
      [{ paragraphs: ["x".repeat(5_001)] }, /each paragraph/],
    ];
    for (const [over, message] of bad) {
      const error = await send({ ...ramadan, ...over }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NzfError);
      expect((error as NzfError).code).toBe("API_UPDATE_INVALID");
      expect((error as Error).message).toMatch(message);
    }
    await settle();
    expect(mailing.catcher.messages()).toEqual([]);
  });
});
