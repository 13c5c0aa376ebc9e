/**
 * The receipt settings: who issues the receipts (the foundation's name and ABN) and how they are
 * sent (SMTP locally, Amazon SES in production, or not at all). Read from the environment by the
 * payments service at start; a bad value stops it with CONFIG_INVALID naming the variable, since a
 * wrong ABN would otherwise be printed on every receipt. Pure (takes the environment as a record).
 *
 * Without NZF_MAIL_TRANSPORT no e-mail is sent: receipts are still numbered and kept, printable in
 * the donor's account. With it, the name, ABN and sender address are required.
 */
import { NzfError } from "../core/coded-error.js";
import { formatAbn, isValidAbn } from "./abn.js";
import type { ReceiptIssuer } from "./receipt.js";

/** The variables, in one place for the docs and the errors. */
export const RECEIPT_ENV = {
  foundationName: "NZF_FOUNDATION_NAME",
  abn: "NZF_FOUNDATION_ABN",
  contactEmail: "NZF_RECEIPT_CONTACT_EMAIL",
  from: "NZF_RECEIPT_FROM",
  transport: "NZF_MAIL_TRANSPORT",
  smtpUrl: "NZF_SMTP_URL",
  sesRegion: "NZF_SES_REGION",
  sesEndpoint: "NZF_SES_ENDPOINT",
  siteUrl: "SITE_URL",
  donorCare: "NZF_DONOR_CARE_EMAIL",
} as const;

export type MailTransportSettings =
  | { kind: "none" }
  | { kind: "smtp"; url: string }
  | { kind: "ses"; region: string; endpoint?: string };

export interface ReceiptSettings {
  /** Null when no transport is set and no name/ABN either: receipts are kept but not e-mailed. */
  issuer: ReceiptIssuer | null;
  /** `"National Zakat Foundation" <receipts@nzf.org.au>`. */
  from: string | null;
  transport: MailTransportSettings;
  /** The donor's account page on the site (`SITE_URL` + `/account/`), linked from notices; absent when not set. */
  accountUrl?: string;
  /** Where the contact page's enquiries are sent; absent: the contact address. */
  donorCareEmail?: string;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
/** `Name <a@b.c>` or a bare address. */
const FROM = /^(?:[^<>"\r\n]*<([^\s@<>"]+@[^\s@<>"]+)>|([^\s@<>"]+@[^\s@<>"]+))$/;
const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d$/;

/** The SMTP URL may carry a password: its value is never printed. */
const SECRET_VALUES: ReadonlySet<string> = new Set([RECEIPT_ENV.smtpUrl]);

function invalid(variable: string, value: string, message: string, hint: string): NzfError {
  const shown = SECRET_VALUES.has(variable) ? variable : `${variable}=${JSON.stringify(value)}`;
  return new NzfError("CONFIG_INVALID", `${message} (${shown})`, {
    subject: variable,
    hint,
  });
}

function httpUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(variable, value, "Not a URL.", `Set ${variable} to an http(s) URL, e.g. http://127.0.0.1:4566.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw invalid(variable, value, "Only http(s) URLs are allowed.", `Set ${variable} to an http(s) URL.`);
  return value;
}

export function readReceiptSettings(env: Record<string, string | undefined>): ReceiptSettings {
  const get = (name: string) => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };
  const transportName = get(RECEIPT_ENV.transport) ?? "none";
  const name = get(RECEIPT_ENV.foundationName);
  const abn = get(RECEIPT_ENV.abn);
  const contactEmail = get(RECEIPT_ENV.contactEmail);
  const from = get(RECEIPT_ENV.from);

  if (abn !== undefined && !isValidAbn(abn)) {
    throw invalid(
      RECEIPT_ENV.abn,
      abn,
      "Not a valid ABN: it needs 11 digits whose check digits add up.",
      "Copy the foundation's ABN from the Australian Business Register (abr.business.gov.au), e.g. 51 824 753 556.",
    );
  }
  if (contactEmail !== undefined && !EMAIL.test(contactEmail))
    throw invalid(RECEIPT_ENV.contactEmail, contactEmail, "Not an e-mail address.", "Set it to e.g. info@nzf.org.au.");
  if (from !== undefined && !FROM.test(from))
    throw invalid(
      RECEIPT_ENV.from,
      from,
      "Not a sender address.",
      'Set it to an address the mail service may send from, e.g. "National Zakat Foundation <receipts@nzf.org.au>".',
    );

  let transport: MailTransportSettings;
  if (transportName === "none") transport = { kind: "none" };
  else if (transportName === "smtp") {
    const url = get(RECEIPT_ENV.smtpUrl);
    if (url === undefined)
      throw new NzfError("CONFIG_INVALID", `${RECEIPT_ENV.transport}=smtp needs ${RECEIPT_ENV.smtpUrl}.`, {
        subject: RECEIPT_ENV.smtpUrl,
        hint: `Set ${RECEIPT_ENV.smtpUrl} to the SMTP server, e.g. smtp://127.0.0.1:2525 (nzf-build --watch starts a local one).`,
      });
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") || parsed.hostname === "")
      throw invalid(
        RECEIPT_ENV.smtpUrl,
        url,
        "Not an smtp:// or smtps:// URL.",
        "Write it as smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465.",
      );
    transport = { kind: "smtp", url };
  } else if (transportName === "ses") {
    const region = get(RECEIPT_ENV.sesRegion) ?? get("AWS_REGION") ?? "ap-southeast-2";
    if (!REGION.test(region))
      throw invalid(
        RECEIPT_ENV.sesRegion,
        region,
        "Not an AWS region.",
        "Set it to the SES region, e.g. ap-southeast-2.",
      );
    const endpoint = get(RECEIPT_ENV.sesEndpoint);
    transport = {
      kind: "ses",
      region,
      ...(endpoint === undefined ? {} : { endpoint: httpUrl(RECEIPT_ENV.sesEndpoint, endpoint) }),
    };
  } else {
    throw invalid(
      RECEIPT_ENV.transport,
      transportName,
      "Not a mail transport.",
      "Use ses (Amazon SES, production), smtp (with NZF_SMTP_URL) or none (receipts kept, not e-mailed).",
    );
  }

  if (transport.kind !== "none") {
    for (const [variable, value] of [
      [RECEIPT_ENV.foundationName, name],
      [RECEIPT_ENV.abn, abn],
      [RECEIPT_ENV.from, from],
    ] as const) {
      if (value === undefined)
        throw new NzfError("CONFIG_INVALID", `Receipts e-mailed through ${transport.kind} need ${variable}.`, {
          subject: variable,
          hint: "An Australian charity's receipt carries the foundation's name and ABN, and is sent from an address of its own: set NZF_FOUNDATION_NAME, NZF_FOUNDATION_ABN and NZF_RECEIPT_FROM (docs/configuration.md).",
        });
    }
  }
  const issuer: ReceiptIssuer | null =
    name !== undefined && abn !== undefined
      ? { name, abn: formatAbn(abn), ...(contactEmail === undefined ? {} : { contactEmail }) }
      : null;
  const siteUrl = get(RECEIPT_ENV.siteUrl);
  const accountUrl =
    siteUrl === undefined ? undefined : new URL("/account/", httpUrl(RECEIPT_ENV.siteUrl, siteUrl)).href;
  const donorCareEmail = get(RECEIPT_ENV.donorCare);
  if (donorCareEmail !== undefined && !EMAIL.test(donorCareEmail))
    throw invalid(
      RECEIPT_ENV.donorCare,
      donorCareEmail,
      "Not an e-mail address.",
      "Set it to e.g. donorcare@nzf.org.au.",
    );
  return {
    issuer,
    from: from ?? null,
    transport,
    ...(accountUrl ? { accountUrl } : {}),
    ...(donorCareEmail ? { donorCareEmail } : {}),
  };
}
