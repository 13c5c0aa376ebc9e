/**
 * Sends messages through nodemailer: SMTP (any server; locally the SMTP catcher `nzf-build
 * --watch` starts) or Amazon SES through nodemailer's SES transport over the AWS SDK's SESv2
 * client (credentials from the standard AWS chain: the Lambda's role in production). Node only.
 */
import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import nodemailer from "nodemailer";
import type { MailMessage } from "./message.js";
import type { MailTransportSettings } from "./settings.js";

export interface Mailer {
  /** Resolves with the id the server gave; rejects with the server's or the network's error. */
  send(message: MailMessage): Promise<{ messageId: string; response: string }>;
  close(): void;
}

/** A send that did nothing: the transport is `none`. */
export class MailNotConfigured extends Error {
  constructor() {
    super("No mail transport is set (NZF_MAIL_TRANSPORT): receipts are kept but not e-mailed.");
    this.name = "MailNotConfigured";
  }
}

/** Seconds an SMTP server may take to answer before the attempt fails (and is retried later). */
const SMTP_TIMEOUT_MS = 15_000;

export function createMailer(settings: MailTransportSettings): Mailer {
  if (settings.kind === "none") {
    return {
      send: () => Promise.reject(new MailNotConfigured()),
      close: () => {},
    };
  }
  const transporter =
    settings.kind === "smtp"
      ? nodemailer.createTransport({
          url: settings.url,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        })
      : nodemailer.createTransport({
          SES: {
            sesClient: new SESv2Client({
              region: settings.region,
              ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
            }),
            SendEmailCommand,
          },
        });
  return {
    async send(message) {
      const info = await transporter.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        messageId: message.messageId,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        ...(message.unsubscribeUrl
          ? {
              list: { unsubscribe: message.unsubscribeUrl },
              headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
            }
          : {}),
      });
      return { messageId: String(info.messageId ?? message.messageId), response: String(info.response ?? "") };
    },
    close: () => transporter.close(),
  };
}
