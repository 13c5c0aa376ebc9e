/**
 * Enquiries and e-mail updates (docs/payments-api.md, "Enquiries and
 * e-mail updates"): `POST /enquiries` (the contact page), `POST /updates` (a sign-up: the footer or
 * the donation form's "keep me updated"), `GET /updates/confirm` (double opt-in), and
 * `GET|POST /updates/unsubscribe` (the link in every update; POST is RFC 8058's one click).
 * Bounded against spam: a honeypot field, rate limits per address and per client IP counted in the
 * database, bounded fields, no third-party script. A bot that fills the honeypot gets the same
 * answer as a person and nothing is stored or sent.
 */
import * as clock from "../../core/clock.js";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Context, Hono } from "hono";
import { CONTACT_LIMITS, UPDATE_SOURCES } from "../../payments/contact.js";
import type { FieldError } from "../../payments/types.js";
import {
  confirmUpdatesNotice,
  ENQUIRY_TOPICS,
  enquiryAcknowledgement,
  enquiryForDonorCare,
  type EnquiryTopic,
} from "../../receipts/contact-notices.js";
import { email, filledHoneypot, text } from "../contact/fields.js";
import { takeAttempt } from "../contact/rate-limit.js";
import type { ApiDeps } from "../deps.js";
import { errorReply, errors, type Reply } from "../errors.js";
import { send } from "../reply.js";
import { readKeyedJson } from "./request-checks.js";

/** Accepted attempts per hour. */
export const LIMITS = { enquiryPerEmail: 3, enquiryPerIp: 10, updatesPerEmail: 3, updatesPerIp: 20 } as const;
/** A confirmation link works this long. */
export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
export { UPDATE_SOURCES };

type ContactTables = {
  enquiries: {
    id: string;
    idempotency_key: string;
    name: string;
    email: string;
    topic: string;
    message: string;
    created_at: Date;
  };
  update_subscribers: {
    email: string;
    status: "pending" | "confirmed" | "unsubscribed";
    consent_at: Date;
    consent_source: string;
    consent_text: string;
    confirm_token_hash: string | null;
    confirmed_at: Date | null;
    unsubscribe_token: string;
    unsubscribed_at: Date | null;
  };
};

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const token = () => randomBytes(24).toString("base64url");

/** The client's address: API Gateway's source IP in Lambda, the socket's on Node. */
function clientIp(c: Context): string {
  const env = c.env as
    | { requestContext?: { http?: { sourceIp?: string } }; incoming?: { socket?: { remoteAddress?: string } } }
    | undefined;
  return env?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress ?? "unknown";
}

/** This service's own address as the caller reached it (a stage prefix kept), for links in e-mails. */
function baseUrl(c: Context, suffix: string): string {
  const url = new URL(c.req.url);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path.endsWith(suffix) ? path.slice(0, -suffix.length) : ""}`;
}

const rateLimited = () =>
  errorReply(
    429,
    "rate_limited",
    "There have been too many messages from this address. Please wait an hour and try again, or e-mail us.",
    {},
    { "Retry-After": "3600" },
  );

const objectBody = (body: unknown) =>
  body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;

export function contactRoutes(app: Hono, deps: ApiDeps): void {
  const now = () => clock.now();
  const db = deps.db.withTables<ContactTables>();

  app.post("/enquiries", async (c) => {
    const read = await readKeyedJson(c);
    if (!read.ok) return send(c, read.reply);
    const body = objectBody(read.body);
    if (!body) return send(c, errors.invalidJson("The request body must be a JSON object."));
    const fields: FieldError[] = [];
    const name = text(body, "name", "your name", CONTACT_LIMITS.name, fields);
    const address = email(body, "email", fields);
    const topic = body.topic;
    if (typeof topic !== "string" || !Object.hasOwn(ENQUIRY_TOPICS, topic))
      fields.push({ field: "topic", code: "invalid", message: "Please choose what your message is about." });
    const message = text(body, "message", "your message", CONTACT_LIMITS.message, fields, { multiline: true });
    if (fields.length) return send(c, errors.validation(fields));
    // The same answer for a bot as for a person; nothing kept, nothing sent.
    if (filledHoneypot(body)) return send(c, { status: 202, body: { enquiryId: `ENQ-${randomUUID().slice(0, 8)}` } });
    const earlier = await db
      .selectFrom("enquiries")
      .select("id")
      .where("idempotency_key", "=", read.key)
      .executeTakeFirst();
    if (earlier) return send(c, { status: 202, body: { enquiryId: earlier.id }, replayed: true });
    const at = now();
    const allowed = await takeAttempt(
      deps.db,
      [
        { bucket: `enquiry:email:${address}`, limit: LIMITS.enquiryPerEmail },
        { bucket: `enquiry:ip:${clientIp(c)}`, limit: LIMITS.enquiryPerIp },
      ],
      at,
    );
    if (!allowed) return send(c, rateLimited());
    const enquiry = {
      id: `ENQ-${randomUUID().slice(0, 8).toUpperCase()}`,
      name,
      email: address,
      topic: topic as EnquiryTopic,
      message,
    };
    const inserted = await db
      .insertInto("enquiries")
      .values({ ...enquiry, idempotency_key: read.key, created_at: at })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!inserted) {
      const first = await db
        .selectFrom("enquiries")
        .select("id")
        .where("idempotency_key", "=", read.key)
        .executeTakeFirstOrThrow();
      return send(c, { status: 202, body: { enquiryId: first.id }, replayed: true });
    }
    const mail = deps.receipts;
    if (mail) {
      const donorCare = mail.donorCareEmail ?? mail.issuer.contactEmail;
      if (donorCare) await mail.notify(enquiryForDonorCare(enquiry, donorCare, mail.issuer), { kind: "enquiry" });
      await mail.notify(enquiryAcknowledgement(enquiry, mail.issuer), { kind: "enquiry-ack" });
    } else deps.logger?.warn("api", `enquiry ${enquiry.id} kept, not e-mailed: no mail settings`);
    return send(c, { status: 202, body: { enquiryId: enquiry.id } });
  });

  app.post("/updates", async (c) => {
    const read = await readKeyedJson(c);
    if (!read.ok) return send(c, read.reply);
    const body = objectBody(read.body);
    if (!body) return send(c, errors.invalidJson("The request body must be a JSON object."));
    const fields: FieldError[] = [];
    const address = email(body, "email", fields);
    const source = body.source;
    if (typeof source !== "string" || !(UPDATE_SOURCES as readonly string[]).includes(source))
      fields.push({
        field: "source",
        code: "invalid",
        message: "The sign-up form is out of date. Please reload the page.",
      });
    const consentText = text(body, "consentText", "the consent words shown", CONTACT_LIMITS.consentText, fields);
    if (fields.length) return send(c, errors.validation(fields));
    // Whatever the address's state, the same answer: the page cannot tell who is subscribed.
    const answer: Reply = { status: 202, body: { status: "confirmation_sent" } };
    if (filledHoneypot(body)) return send(c, answer);
    const at = now();
    const existing = await db
      .selectFrom("update_subscribers")
      .selectAll()
      .where("email", "=", address)
      .executeTakeFirst();
    if (existing?.status === "confirmed") return send(c, answer);
    const allowed = await takeAttempt(
      deps.db,
      [
        { bucket: `updates:email:${address}`, limit: LIMITS.updatesPerEmail },
        { bucket: `updates:ip:${clientIp(c)}`, limit: LIMITS.updatesPerIp },
      ],
      at,
    );
    if (!allowed) return send(c, rateLimited());
    const confirm = token();
    const values = {
      status: "pending" as const,
      consent_at: at,
      consent_source: source as string,
      consent_text: consentText,
      confirm_token_hash: sha256(confirm),
      confirmed_at: null,
      unsubscribed_at: null,
    };
    await db
      .insertInto("update_subscribers")
      .values({ email: address, unsubscribe_token: token(), ...values })
      .onConflict((oc) => oc.column("email").doUpdateSet(values))
      .execute();
    const mail = deps.receipts;
    if (mail)
      await mail.notify(
        confirmUpdatesNotice({
          email: address,
          confirmUrl: `${baseUrl(c, "/updates")}/updates/confirm?token=${confirm}`,
          consentText,
          issuer: mail.issuer,
          attempt: sha256(confirm).slice(0, 16),
        }),
        { kind: "updates-confirm" },
      );
    return send(c, answer);
  });

  app.get("/updates/confirm", async (c) => {
    const given = c.req.query("token") ?? "";
    const at = now();
    const row = given
      ? await db
          .selectFrom("update_subscribers")
          .selectAll()
          .where("confirm_token_hash", "=", sha256(given))
          .executeTakeFirst()
      : undefined;
    const fresh =
      row && row.status === "pending" && at.getTime() - new Date(row.consent_at).getTime() <= CONFIRM_TTL_MS;
    if (!row || !fresh)
      return page(
        c,
        404,
        "This link has expired",
        "Please sign up again on our website: we send a new link each time.",
      );
    await db
      .updateTable("update_subscribers")
      .set({ status: "confirmed", confirmed_at: at, confirm_token_hash: null })
      .where("email", "=", row.email)
      .execute();
    return page(c, 200, "You will receive our updates", "Thank you. Every update has a link to unsubscribe.");
  });

  // GET shows a button (mail scanners follow links); POST unsubscribes, from the button or a mail program's one click.
  app.get("/updates/unsubscribe", async (c) => {
    const given = c.req.query("token") ?? "";
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(given))
      return page(c, 404, "This link is not valid", "Please use the link in our latest e-mail.");
    return page(
      c,
      200,
      "Unsubscribe from our updates",
      "Press the button and we will send you no more updates.",
      given,
    );
  });
  app.post("/updates/unsubscribe", async (c) => {
    const given = c.req.query("token") ?? "";
    const row = /^[A-Za-z0-9_-]{20,64}$/.test(given)
      ? await db.selectFrom("update_subscribers").selectAll().where("unsubscribe_token", "=", given).executeTakeFirst()
      : undefined;
    if (!row) return page(c, 404, "This link is not valid", "Please use the link in our latest e-mail.");
    if (row.status !== "unsubscribed")
      await db
        .updateTable("update_subscribers")
        .set({ status: "unsubscribed", unsubscribed_at: now(), confirm_token_hash: null })
        .where("email", "=", row.email)
        .execute();
    return page(
      c,
      200,
      "You are unsubscribed",
      "We will send you no more updates. Receipts for your gifts still reach you.",
    );
  });
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/** A small page of the service's own (the links in e-mails land here): no script, no outside resource. */
function page(c: Context, status: number, heading: string, lead: string, unsubscribeToken?: string): Response {
  const form = unsubscribeToken
    ? `<form method="post" action="?token=${escapeHtml(encodeURIComponent(unsubscribeToken))}"><button type="submit">Unsubscribe</button></form>`
    : "";
  const html = `<!DOCTYPE html><html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(heading)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5"><main><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(lead)}</p>${form}</main></body></html>`;
  return c.body(html, status as 200, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
  });
}
