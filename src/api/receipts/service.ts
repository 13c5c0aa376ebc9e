/**
 * Receipts as the service uses them: a signed webhook says a payment went through (`paid`) or was
 * refunded or disputed (`voided`), the receipt is issued or voided in the database, and its e-mail
 * is tried at once; anything not sent goes out with the next `deliverDue` (the scheduled job, or
 * the local timer). Made from the receipt settings (src/receipts/settings.ts); null when the
 * foundation's name and ABN are not set, since a receipt without them is not a receipt.
 */
import * as clock from "../../core/clock.js";
import type { Kysely } from "kysely";
import type { Logger } from "../../core/logger.js";
import { createMailer } from "../../receipts/mailer.js";
import type { Notice } from "../../receipts/notice.js";
import type { ReceiptIssuer } from "../../receipts/receipt.js";
import type { ReceiptSettings } from "../../receipts/settings.js";
import { deliverNotices, queueNotice } from "../mail/outbox.js";
import type { ApiDatabase } from "../db/schema.js";
import { type DeliverReport, deliverReceipts } from "./deliver.js";
import { issueReceipt, type PaidCharge, type ReceiptIssuing, type VoidCause, voidForRefund } from "./issue.js";
import type { ReceiptRow } from "./tables.js";

export interface ReceiptsService {
  paid(charge: PaidCharge): Promise<ReceiptRow>;
  voided(cause: VoidCause): Promise<ReceiptRow[]>;
  /** Sends what is due: new receipts whose first send failed, and retries; then the notices due. */
  deliverDue(): Promise<DeliverReport>;
  /** Who signs the notices, and the account page they link to. */
  issuer: ReceiptIssuer;
  accountUrl?: string;
  /** Where enquiries go (NZF_DONOR_CARE_EMAIL, else the contact address). */
  donorCareEmail?: string;
  /** Queues a notice (once per key: false when it was queued before) and tries to send it at once. */
  notify(notice: Notice, meta: { kind: string; donationId?: string | null }): Promise<boolean>;
  close(): void;
}

export interface ReceiptsServiceOptions {
  settings: ReceiptSettings;
  /** The one per-fund setting; absent: no fund is called tax-deductible (never claim what is not set). */
  taxDeductible?: (fund: string) => boolean;
  logger?: Logger;
}

export function createReceiptsService(
  db: Kysely<ApiDatabase>,
  options: ReceiptsServiceOptions,
): ReceiptsService | null {
  const { settings } = options;
  if (!settings.issuer) return null;
  const mailing = settings.transport.kind !== "none";
  const mailer = createMailer(settings.transport);
  const issuing: ReceiptIssuing = {
    issuer: settings.issuer,
    taxDeductible: options.taxDeductible ?? (() => false),
    mailing,
  };
  const from = settings.from ?? `${settings.issuer.name} <receipts@localhost>`;
  const deliver = (keys?: string[]) =>
    deliverReceipts(db, {
      mailer,
      from,
      ...(settings.issuer?.contactEmail ? { replyTo: settings.issuer.contactEmail } : {}),
      // In a webhook, one quick try: the outbox sends it later if the mail server is slow.
      ...(keys ? { keys, retry: { attempts: 1 } } : {}),
    });
  const trySend = async (rows: ReceiptRow[]) => {
    if (!mailing || rows.length === 0) return;
    try {
      await deliver(rows.map((r) => r.key));
    } catch (error) {
      options.logger?.warn("api", `receipt e-mail left for later: ${(error as Error).message}`);
    }
  };
  const sendNotices = (keys?: string[]) =>
    deliverNotices(db, {
      mailer,
      from,
      ...(settings.issuer?.contactEmail ? { replyTo: settings.issuer.contactEmail } : {}),
      ...(keys ? { keys, retry: { attempts: 1 } } : {}),
    });
  return {
    issuer: settings.issuer,
    ...(settings.accountUrl ? { accountUrl: settings.accountUrl } : {}),
    ...(settings.donorCareEmail ? { donorCareEmail: settings.donorCareEmail } : {}),
    async notify(notice, meta) {
      const queued = await queueNotice(db, notice, { ...meta, now: clock.now() });
      if (queued && mailing)
        await sendNotices([notice.key]).catch((error: Error) =>
          options.logger?.warn("api", `notice e-mail left for later: ${error.message}`),
        );
      return queued;
    },
    async paid(charge) {
      const row = await issueReceipt(db, charge, issuing);
      await trySend([row]);
      return row;
    },
    async voided(cause) {
      const rows = await voidForRefund(db, cause, issuing);
      await trySend(rows);
      return rows;
    },
    async deliverDue() {
      if (!mailing) return { sent: [], failed: [] };
      const receipts = await deliver();
      const notices = await sendNotices();
      return { sent: [...receipts.sent, ...notices.sent], failed: [...receipts.failed, ...notices.failed] };
    },
    close: () => mailer.close(),
  };
}
