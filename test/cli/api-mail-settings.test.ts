/**
 * `nzf-build api` hands the service the receipt and notice settings (declared in src/core/options.ts,
 * checked by the service's rules): a bad ABN stops the start naming the variable, and with an SMTP
 * transport an enquiry reaches donor care's address through the compiled CLI.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type SmtpCatcher, startSmtpCatcher } from "../../src/stand-ins/smtp/catcher.js";
import { cli, freePort, removeTemporary, startCli, tempDir, waitForHttp } from "./cli-process.js";

let catcher: SmtpCatcher | undefined;
afterAll(async () => {
  await catcher?.stop();
  await removeTemporary();
});

describe("nzf-build api and the service's mail settings", () => {
  it("refuses an ABN whose check digits do not add up, naming the variable", async () => {
    const run = await cli(
      ["api", "--port", "0", "--data-dir", await tempDir()],
      { NZF_FOUNDATION_NAME: "National Zakat Foundation", NZF_FOUNDATION_ABN: "41 600 273 915" },
      60_000,
    );
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain("[CONFIG_INVALID]");
    expect(run.output).toContain("NZF_FOUNDATION_ABN");
  }, 90_000);

  it("sends an enquiry to NZF_DONOR_CARE_EMAIL through NZF_SMTP_URL", async () => {
    catcher = await startSmtpCatcher();
    const port = await freePort();
    const api = startCli(["api", "--port", String(port), "--data-dir", await tempDir()], {
      NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
      NZF_FOUNDATION_ABN: "51 824 753 556",
      NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
      NZF_RECEIPT_CONTACT_EMAIL: "info@nzf.org.au",
      NZF_DONOR_CARE_EMAIL: "donorcare@nzf.org.au",
      NZF_MAIL_TRANSPORT: "smtp",
      NZF_SMTP_URL: catcher.smtpUrl,
    });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/donations/none`, api, 60_000);
      const res = await fetch(`http://127.0.0.1:${port}/enquiries`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
        body: JSON.stringify({
          name: "Aisha Rahman",
          email: "aisha@example.com",
          topic: "general",
          message: "Salaam",
          website: "",
        }),
      });
      expect(res.status, api.output()).toBe(202);
      const mail = await catcher.waitFor((m) => m.to === "donorcare@nzf.org.au");
      expect(mail.from).toContain("receipts@nzf.org.au");
      expect(mail.text).toContain("National Zakat Foundation Australia (ABN 51 824 753 556)");
    } finally {
      await api.stop();
    }
  }, 90_000);
});
