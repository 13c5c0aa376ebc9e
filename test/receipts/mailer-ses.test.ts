import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMailer } from "../../src/receipts/mailer.js";
import { receiptMessage } from "../../src/receipts/message.js";
import { zakatReceipt } from "../support/receipt-fixture.js";

// Production sends through Amazon SES: nodemailer's SES transport over the SDK's SESv2 client. A
// local HTTP endpoint answers SendEmail (POST /v2/email/outbound-emails) as SES does, so the test
// sees the signed request and the raw MIME message the SDK really sends.
const requests: { path: string; authorization: string; body: { Content?: { Raw?: { Data?: string } } } }[] = [];
const server = createServer(async (req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  requests.push({
    path: req.url ?? "",
    authorization: String(req.headers.authorization ?? ""),
    body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
  });
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ MessageId: "0100018c-ses-test" }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  vi.stubEnv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE");
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "not-a-real-secret");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
});

describe("the SES transport", () => {
  it("sends the receipt as one signed SendEmail call with the raw message", async () => {
    const port = (server.address() as AddressInfo).port;
    const mailer = createMailer({ kind: "ses", region: "ap-southeast-2", endpoint: `http://127.0.0.1:${port}` });
    const message = receiptMessage(zakatReceipt, { from: "National Zakat Foundation <receipts@nzf.org.au>" });
    const sent = await mailer.send(message);
    mailer.close();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe("/v2/email/outbound-emails");
    expect(requests[0]!.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/ap-southeast-2\/ses\//,
    );
    const raw = Buffer.from(requests[0]!.body.Content!.Raw!.Data!, "base64").toString("utf8");
    expect(raw).toMatch(/^Subject: Your receipt 2026-27\/000123 for your gift$/m);
    expect(raw).toMatch(/^To: aisha@example.org$/m);
    expect(raw).toContain("Content-Type: multipart/alternative");
    expect(raw).toContain("text/html");
    expect(sent.messageId).toContain("0100018c-ses-test");
  });
});
