import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailer } from "../../../src/receipts/mailer.js";
import { receiptMessage } from "../../../src/receipts/message.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { zakatReceipt } from "../../support/receipt-fixture.js";

let catcher: SmtpCatcher;
beforeAll(async () => {
  catcher = await startSmtpCatcher();
});
afterAll(() => catcher.stop());
beforeEach(() => catcher.clear());

const from = "National Zakat Foundation <receipts@nzf.org.au>";

describe("the SMTP catcher", () => {
  it("keeps a receipt sent through nodemailer and shows it over HTTP", async () => {
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    await mailer.send(receiptMessage(zakatReceipt, { from }));
    mailer.close();
    const message = await catcher.waitFor((m) => m.subject.includes("2026-27/000123"));
    expect(message).toMatchObject({
      id: expect.any(Number),
      envelope: { from: "receipts@nzf.org.au", to: ["aisha@example.org"] },
      to: "aisha@example.org",
      subject: "Your receipt 2026-27/000123 for your gift",
      messageId: "<receipt-receipt-2026-27-000123@nzf.org.au>",
    });
    expect(message.text).toMatch(/^Amount: +\$38\.12$/m);
    expect(message.html).toContain('<th scope="row"');

    const list = (await (await fetch(`${catcher.url}messages.json`)).json()) as { id: number; subject: string }[];
    expect(list.map((m) => m.subject)).toEqual(["Your receipt 2026-27/000123 for your gift"]);
    const html = await fetch(`${catcher.url}messages/${message.id}.html`);
    expect(html.headers.get("content-security-policy")).toMatch(/^sandbox;/);
    expect(await html.text()).toContain("Aisha Rahman");
    expect(await (await fetch(`${catcher.url}messages/${message.id}.txt`)).text()).toContain("3 of 12");
    const page = await (await fetch(catcher.url)).text();
    expect(page).toContain(`href="/messages/${message.id}.html"`);
  });

  it("escapes what a sender wrote on its list page", async () => {
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    await mailer.send({
      from,
      to: "x@example.org",
      subject: "<script>alert(1)</script>",
      text: "t",
      html: "<p>h</p>",
      messageId: "<x@nzf.org.au>",
    });
    mailer.close();
    await catcher.waitFor(() => true);
    const page = await fetch(catcher.url);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const text = await page.text();
    expect(text).not.toContain("<script>");
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("answers 404 for a message it does not have and 405 for a write", async () => {
    expect((await fetch(`${catcher.url}messages/999.html`)).status).toBe(404);
    expect((await fetch(`${catcher.url}messages/../../etc/passwd`)).status).toBe(404);
    expect((await fetch(catcher.url, { method: "POST", body: "x" })).status).toBe(405);
  });

  it("stays up after a client that speaks nonsense and hangs up", async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(catcher.port, "127.0.0.1", () => {
        socket.write("HELO\r\nDATA\r\n\0\0\0garbage\r\n");
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
    });
    const mailer = createMailer({ kind: "smtp", url: catcher.smtpUrl });
    await mailer.send(receiptMessage(zakatReceipt, { from }));
    mailer.close();
    await catcher.waitFor(() => true);
    expect(catcher.messages()).toHaveLength(1);
  });

  it("waitFor says how long it waited when nothing comes", async () => {
    await expect(catcher.waitFor(() => false, 50)).rejects.toThrow(/within 50 ms/);
  });
});
