/**
 * The set-up the service's mail tests share (the scheduled-charge jobs, the contact endpoints, the
 * updates sender): the payments service in process on a clock the test moves, an SMTP catcher, and
 * the receipts service sending through it with the foundation's settings. The services' clock
 * (src/core/clock.ts, replaced for every test file by service-clock.ts) is set to `now`, or to
 * `start` and what setNow and reset give.
 */
import { createReceiptsService } from "../../src/api/receipts/service.js";
import { readReceiptSettings } from "../../src/receipts/settings.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";
import { startTestPaymentsService, type TestPaymentsService } from "./payments-service.js";
import { setServiceClock, restoreRealClock } from "./service-clock.js";

/** The foundation's receipt settings the tests send with (the ABN's check digits are right). */
export const TEST_MAIL_SETTINGS = {
  NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
  NZF_FOUNDATION_ABN: "51 824 753 556",
  NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
  NZF_RECEIPT_CONTACT_EMAIL: "info@nzf.org.au",
  NZF_DONOR_CARE_EMAIL: "donorcare@nzf.org.au",
  NZF_MAIL_TRANSPORT: "smtp",
  SITE_URL: "https://nzf.org.au",
} as const;

export interface MailingService {
  service: TestPaymentsService;
  catcher: SmtpCatcher;
  /** The service's "now": every part of it (routes, jobs, receipts) reads this. */
  now(): Date;
  setNow(at: Date): void;
  /** Empties the database and the catcher, and puts the clock back to `at`. */
  reset(at: Date): Promise<void>;
  stop(): Promise<void>;
}

export async function startMailingService(options: {
  start: Date;
  /** The test's own clock instead of the one setNow moves (setNow and reset then leave it alone). */
  now?: () => Date;
  /** Settings over TEST_MAIL_SETTINGS (a key set to undefined is left out). */
  settings?: Record<string, string | undefined>;
  /** More of the service's settings (NZF_COGNITO_*: the account API at /graphql, as deployed). */
  env?: Record<string, string>;
}): Promise<MailingService> {
  let clock = options.start;
  const now = options.now ?? (() => clock);
  await setServiceClock(now);
  const [service, catcher] = await Promise.all([
    startTestPaymentsService(options.env ? { env: options.env } : {}),
    startSmtpCatcher(),
  ]);
  const env = Object.fromEntries(
    Object.entries({ ...TEST_MAIL_SETTINGS, NZF_SMTP_URL: catcher.smtpUrl, ...options.settings }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  service.deps.receipts = createReceiptsService(service.db, { settings: readReceiptSettings(env) });
  return {
    service,
    catcher,
    now,
    setNow(at) {
      clock = at;
    },
    async reset(at) {
      clock = at;
      await service.reset();
      catcher.clear();
    },
    async stop() {
      service.deps.receipts?.close();
      await Promise.all([service.stop(), catcher.stop()]);
      restoreRealClock();
    },
  };
}
