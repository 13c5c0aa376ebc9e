/**
 * The sender of e-mail updates (issue 39, marketingApi): one update to every confirmed subscriber,
 * each one a notice in the outbox (src/api/mail/outbox.ts) keyed `update:<update id>:<address>`, so
 * sending the same update again (a retry, a run that died half way) reaches nobody twice, and a send
 * that fails is retried by the outbox like any notice. Every update carries the sender's name and
 * ABN and the subscriber's own unsubscribe link (`updateNotice`), also as `List-Unsubscribe` with
 * one click (RFC 8058), as the Spam Act 2003 requires. Subscribers are read in pages, and each page
 * just before it is sent, so an address unsubscribed meanwhile is not written to.
 */
import type { Kysely } from "kysely";
import { NzfError } from "../../core/errors.js";
import { updateNotice } from "../../receipts/contact-notices.js";
import type { ReceiptsService } from "../receipts/service.js";

export interface Update {
  /** Names the update for good: `2027-ramadan`. Sending one id twice sends it once to each address. */
  id: string;
  subject: string;
  heading: string;
  paragraphs: string[];
}

export interface UpdateReport {
  /** Notices written for this update now (addresses that had it before are not counted). */
  queued: number;
  /** Confirmed subscribers when the update went out. */
  subscribers: number;
}

type SubscriberTables = {
  update_subscribers: { email: string; status: string; unsubscribe_token: string };
};
// biome-ignore lint/suspicious/noExplicitAny: any database that has the update_subscribers table
type AnyDb = Kysely<any>;

const PAGE = 100;
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const LINE_BREAK = /[\u0000-\u001f\u007f\u2028\u2029]/;

/** Refuses what would make a broken or misleading e-mail, naming the part at fault. */
export function checkUpdate(update: Update): void {
  const refuse = (what: string) => {
    throw new NzfError("API_UPDATE_INVALID", `The update ${JSON.stringify(update.id ?? "")}: ${what}.`, {
      subject: "update",
    });
  };
  if (typeof update.id !== "string" || !ID.test(update.id))
    refuse("its id must be lower-case letters, digits and dashes (up to 64)");
  for (const field of ["subject", "heading"] as const) {
    const value = update[field];
    if (typeof value !== "string" || value.trim() === "") refuse(`${field} is empty`);
    if (LINE_BREAK.test(value)) refuse(`${field} must be one line`);
    if (value.length > 200) refuse(`${field} is longer than 200 characters`);
  }
  if (!Array.isArray(update.paragraphs) || update.paragraphs.length === 0) refuse("it has no paragraph");
  if (update.paragraphs.some((p) => typeof p !== "string" || p.trim() === "" || p.length > 5_000))
    refuse("each paragraph must be text of 1 to 5,000 characters");
}

/**
 * Sends `update` to every confirmed subscriber through `mail` (the receipts service's outbox).
 * `serviceUrl` is the service's public address (PAYMENTS_API_URL): the unsubscribe links point there.
 */
export async function sendUpdate(
  db: AnyDb,
  mail: ReceiptsService,
  update: Update,
  options: { serviceUrl: string },
): Promise<UpdateReport> {
  checkUpdate(update);
  const base = options.serviceUrl.replace(/\/+$/, "");
  const sdb = db as unknown as Kysely<SubscriberTables>;
  const report: UpdateReport = { queued: 0, subscribers: 0 };
  let after = "";
  for (;;) {
    const page = await sdb
      .selectFrom("update_subscribers")
      .select(["email", "unsubscribe_token"])
      .where("status", "=", "confirmed")
      .where("email", ">", after)
      .orderBy("email")
      .limit(PAGE)
      .execute();
    for (const subscriber of page) {
      report.subscribers++;
      const notice = updateNotice({
        key: `update:${update.id}:${subscriber.email}`,
        email: subscriber.email,
        subject: update.subject,
        heading: update.heading,
        paragraphs: update.paragraphs,
        unsubscribeUrl: `${base}/updates/unsubscribe?token=${encodeURIComponent(subscriber.unsubscribe_token)}`,
        issuer: mail.issuer,
      });
      if (await mail.notify(notice, { kind: "update" })) report.queued++;
    }
    if (page.length < PAGE) return report;
    after = page[page.length - 1]!.email;
  }
}
