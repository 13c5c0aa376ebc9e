/**
 * A local SMTP server that keeps every message it is sent instead of delivering it, and shows them
 * over HTTP: `nzf-build --watch` starts one so a developer can read the receipts the local payments
 * service sends, and tests read their mail from it. smtp-server speaks SMTP, mailparser reads the
 * MIME message. Loopback only; it keeps the last MAX_MESSAGES messages, each at most MAX_BYTES.
 *
 * HTTP, at `url`:
 *   GET /                      the messages, newest first, as a page with links
 *   GET /messages.json         the same as JSON (id, from, to, subject, date, messageId, text, html)
 *   GET /messages/<id>.html    a message's HTML part, as a mail program shows it: no script runs
 *                              and nothing is fetched (Content-Security-Policy: sandbox)
 *   GET /messages/<id>.txt     its plain text part
 *   DELETE /messages           forget every message
 */
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { catcherPage } from "./page.js";

export interface CaughtMessage {
  /** 1, 2, 3… in the order received. */
  id: number;
  receivedAt: string;
  /** The SMTP envelope: who it was really sent to (Bcc included). */
  envelope: { from: string; to: string[] };
  from: string;
  to: string;
  subject: string;
  date: string | null;
  messageId: string | null;
  text: string;
  /** The HTML part, or null for a text-only message. */
  html: string | null;
}

export interface SmtpCatcher {
  /** The SMTP port. */
  port: number;
  /** `smtp://127.0.0.1:<port>`, for NZF_SMTP_URL. */
  smtpUrl: string;
  /** The HTTP page that lists the mail: `http://127.0.0.1:<httpPort>/`. */
  url: string;
  messages(): CaughtMessage[];
  /** The first message (oldest first) that `match` accepts, waiting for it up to `timeoutMs`. */
  waitFor(match: (m: CaughtMessage) => boolean, timeoutMs?: number): Promise<CaughtMessage>;
  clear(): void;
  stop(): Promise<void>;
}

export interface SmtpCatcherOptions {
  /** SMTP port; 0 (the default) takes any free one. */
  port?: number;
  /** HTTP port of the reading page; 0 (the default) takes any free one. */
  httpPort?: number;
}

export const MAX_MESSAGES = 500;
export const MAX_BYTES = 10 * 1024 * 1024;
const HOST = "127.0.0.1";

export async function startSmtpCatcher(options: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const kept: CaughtMessage[] = [];
  let nextId = 1;
  const waiters = new Set<() => void>();

  const smtp = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to make, and nodemailer sends without STARTTLS when none is offered.
    disabledCommands: ["STARTTLS", "AUTH"],
    disableReverseLookup: true,
    size: MAX_BYTES,
    banner: "nzf-build SMTP catcher: mail is kept here, not delivered",
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error("Message too large for the catcher"), { responseCode: 552 }));
            return;
          }
          const addresses = (v: typeof parsed.to) =>
            v === undefined ? "" : (Array.isArray(v) ? v : [v]).map((a) => a.text).join(", ");
          kept.push({
            id: nextId++,
            receivedAt: new Date().toISOString(),
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            from: parsed.from?.text ?? "",
            to: addresses(parsed.to),
            subject: parsed.subject ?? "",
            date: parsed.date ? parsed.date.toISOString() : null,
            messageId: parsed.messageId ?? null,
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : null,
          });
          if (kept.length > MAX_MESSAGES) kept.splice(0, kept.length - MAX_MESSAGES);
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(Object.assign(error, { responseCode: 451 })));
    },
  });
  // A client that drops the connection is the client's problem, not a reason to stop.
  smtp.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    smtp.server.once("error", reject);
    smtp.listen(options.port ?? 0, HOST, () => resolve());
  });
  const port = (smtp.server.address() as AddressInfo).port;

  const http = createHttpServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://catcher").pathname;
    if (req.method === "DELETE" && path === "/messages") {
      kept.length = 0;
      return send(res, 204, "text/plain", "");
    }
    if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "text/plain", "Only GET and DELETE.\n");
    if (path === "/") return send(res, 200, "text/html; charset=utf-8", catcherPage([...kept].reverse()), PAGE_CSP);
    if (path === "/messages.json") return send(res, 200, "application/json", JSON.stringify([...kept].reverse()));
    const one = /^\/messages\/(\d{1,9})\.(html|txt)$/.exec(path);
    const message = one ? kept.find((m) => m.id === Number(one[1])) : undefined;
    if (!one || !message) return send(res, 404, "text/plain", "No such message.\n");
    if (one[2] === "txt") return send(res, 200, "text/plain; charset=utf-8", message.text);
    if (message.html === null) return send(res, 404, "text/plain", "This message has no HTML part.\n");
    return send(res, 200, "text/html; charset=utf-8", message.html, MAIL_CSP);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.httpPort ?? 0, HOST, () => resolve());
  });
  const httpPort = (http.address() as AddressInfo).port;

  return {
    port,
    smtpUrl: `smtp://${HOST}:${port}`,
    url: `http://${HOST}:${httpPort}/`,
    messages: () => [...kept],
    clear: () => {
      kept.length = 0;
    },
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = kept.find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(`No matching message reached the SMTP catcher within ${timeoutMs} ms (${kept.length} kept).`),
          );
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    async stop() {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => http.close(() => resolve())),
        new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}

/** The list page: its own markup only, no script. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
/** A message's HTML: shown as a mail program would, no script, nothing fetched from anywhere. */
const MAIL_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function send(res: ServerResponse, status: number, type: string, body: string, csp?: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...(csp ? { "content-security-policy": csp } : {}),
  });
  res.end(body);
}
