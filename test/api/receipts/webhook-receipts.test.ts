/**
 * Receipts from the signed Stripe webhooks, end to end: a card gift paid at the Stripe stand-in
 * gets its receipt by e-mail (read from the SMTP catcher) the moment the webhook arrives, never
 * from the browser; a refund voids it and e-mails a corrected receipt; a dispute voids it, with why.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { receiptsOf } from "../../../src/api/receipts/issue.js";
import { createReceiptsService } from "../../../src/api/receipts/service.js";
import { readReceiptSettings } from "../../../src/receipts/settings.js";
import { type SmtpCatcher, startSmtpCatcher } from "../../../src/stand-ins/smtp/catcher.js";
import { donationRequest } from "../../support/donation-request.js";
import {
  startTestPaymentsService,
  TEST_PUBLISHABLE_KEY,
  type TestPaymentsService,
} from "../../support/payments-service.js";

let service: TestPaymentsService;
let catcher: SmtpCatcher;
beforeAll(async () => {
  [service, catcher] = await Promise.all([startTestPaymentsService(), startSmtpCatcher()]);
  service.deps.receipts = createReceiptsService(service.db, {
    settings: readReceiptSettings({
      NZF_FOUNDATION_NAME: "National Zakat Foundation Australia",
      NZF_FOUNDATION_ABN: "51 824 753 556",
      NZF_RECEIPT_FROM: "National Zakat Foundation <receipts@nzf.org.au>",
      NZF_MAIL_TRANSPORT: "smtp",
      NZF_SMTP_URL: catcher.smtpUrl,
    }),
    taxDeductible: (fund) => fund === "sadaqah",
  });
});
afterAll(async () => {
  service?.deps.receipts?.close();
  await Promise.all([service?.stop(), catcher?.stop()]);
});
beforeEach(async () => {
  await service.reset();
  catcher.clear();
});

async function payByCard(
  fund: "zakat" | "sadaqah",
  amountCents: number,
): Promise<{ donationId: string; intentId: string }> {
  const res = await fetch(`${service.url}/donations`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify(donationRequest({ fund, amountCents })),
  });
  expect(res.status).toBe(201);
  const { donationId, clientSecret } = (await res.json()) as { donationId: string; clientSecret: string };
  const intentId = clientSecret.split("_secret_")[0]!;
  const confirmed = await fetch(`${service.stripe.url}/v1/payment_intents/${intentId}/confirm`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      key: TEST_PUBLISHABLE_KEY,
      client_secret: clientSecret,
      payment_method: "pm_card_visa",
    }),
  });
  expect(confirmed.status).toBe(200);
  await service.stripe.settled();
  return { donationId, intentId };
}

describe("receipts from Stripe's signed webhooks", () => {
  it("e-mails the receipt of a paid zakat gift once, with the card's last digits and no deductibility claim", async () => {
    const { donationId } = await payByCard("zakat", 5_000);
    const mail = await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    expect(mail.envelope.to).toEqual(["aisha@example.com"]);
    expect(mail.text).toMatch(/^Received from: +Aisha Rahman$/m);
    expect(mail.text).toMatch(/^Paid with: +Visa ending 4242$/m);
    expect(mail.text).toContain("Gifts to Zakat are not tax-deductible");
    const rows = await receiptsOf(service.db, donationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "receipt", email_status: "sent" });
    // The webhook replayed: nothing new.
    for (const delivery of service.stripe.deliveries()) await service.stripe.redeliver(delivery.eventId);
    await service.stripe.settled();
    expect(await receiptsOf(service.db, donationId)).toHaveLength(1);
    expect(catcher.messages()).toHaveLength(1);
  });

  it("a partial refund voids the receipt and e-mails a corrected one for what was kept", async () => {
    const { donationId, intentId } = await payByCard("sadaqah", 10_000);
    await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    expect(catcher.messages()[0]!.text).toContain("This is a tax-deductible gift");
    await service.deps.stripe!.refunds.create({ payment_intent: intentId, amount: 3_000 });
    await service.stripe.settled();
    const corrected = await catcher.waitFor((m) => m.subject.startsWith("Corrected receipt"));
    const voided = await catcher.waitFor((m) => m.subject.includes("is void"));
    const rows = await receiptsOf(service.db, donationId);
    expect(rows.map((r) => r.kind).sort()).toEqual(["correction", "receipt", "void"]);
    const kept = rows.find((r) => r.kind === "correction")!;
    expect(kept.amount_cents).toBe(rows.find((r) => r.kind === "receipt")!.amount_cents - 3_000);
    expect(corrected.text).toContain(`replaces receipt ${rows.find((r) => r.kind === "receipt")!.number}`);
    expect(voided.text).toContain("$30.00 of this payment was refunded.");
  });

  it("a dispute voids the receipt with its reason and e-mails the donor; nothing kept, no correction", async () => {
    const { donationId, intentId } = await payByCard("sadaqah", 4_000);
    await catcher.waitFor((m) => m.subject.startsWith("Your receipt"));
    service.stripe.dispute(intentId);
    await service.stripe.settled();
    const voided = await catcher.waitFor((m) => m.subject.includes("is void"));
    const rows = await receiptsOf(service.db, donationId);
    expect(rows.map((r) => r.kind).sort()).toEqual(["receipt", "void"]);
    expect(voided.envelope.to).toEqual(["aisha@example.com"]);
    expect(voided.text).toContain(rows.find((r) => r.kind === "receipt")!.number);
    expect(voided.text).toContain("The payment was disputed with your bank.");
    const status = await fetch(`${service.url}/donations/${donationId}`);
    expect(((await status.json()) as { status: string }).status).toBe("disputed");
    // The event again: nothing new.
    for (const d of service.stripe.deliveries().filter((x) => x.type === "charge.dispute.created"))
      await service.stripe.redeliver(d.eventId);
    await service.stripe.settled();
    expect(await receiptsOf(service.db, donationId)).toHaveLength(2);
    expect(catcher.messages().filter((m) => m.subject.includes("is void"))).toHaveLength(1);
  });

  it("a refund of a monthly gift's invoice voids that month's receipt, as a one-off refund does", async () => {
    service.stripe.setNow(new Date("2026-12-03T01:00:00Z"));
    const res = await fetch(`${service.url}/donations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: JSON.stringify(donationRequest({ fund: "sadaqah", amountCents: 2_000, frequency: "monthly" })),
    });
    expect(res.status).toBe(201);
    const { donationId, clientSecret } = (await res.json()) as { donationId: string; clientSecret: string };
    const confirmed = await fetch(
      `${service.stripe.url}/v1/payment_intents/${clientSecret.split("_secret_")[0]}/confirm`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          key: TEST_PUBLISHABLE_KEY,
          client_secret: clientSecret,
          payment_method: "pm_card_visa",
        }),
      },
    );
    expect(confirmed.status).toBe(200);
    await service.stripe.settled();
    // The second month, billed by Stripe.
    await service.stripe.advanceTo(new Date("2027-01-04T01:00:00Z"));
    await service.stripe.settled();
    const receipts = (await receiptsOf(service.db, donationId)).filter((r) => r.kind === "receipt");
    expect(receipts).toHaveLength(2);
    const [first, second] = receipts.sort((a, b) => a.number.localeCompare(b.number));
    expect(first!.charge_id).toMatch(/^in_/);

    // Donor care refunds the second month in full, and $5 of the first.
    const intentOf = async (invoiceId: string) =>
      (await service.deps.stripe!.invoicePayments.list({ invoice: invoiceId })).data[0]!.payment
        .payment_intent as string;
    await service.deps.stripe!.refunds.create({ payment_intent: await intentOf(second!.charge_id) });
    await service.deps.stripe!.refunds.create({ payment_intent: await intentOf(first!.charge_id), amount: 500 });
    await service.stripe.settled();

    const after = await receiptsOf(service.db, donationId);
    const byKind = (kind: string) => after.filter((r) => r.kind === kind);
    expect(
      byKind("void")
        .map((r) => r.number)
        .sort(),
    ).toEqual([first!.number, second!.number].sort());
    expect(byKind("correction").map((r) => r.amount_cents)).toEqual([1_500]);
    expect(after.find((r) => r.key === second!.key)!.voided_at).not.toBeNull();
    await catcher.waitFor((m) => m.subject === `Receipt ${second!.number} is void`);
    const voided = catcher.messages().find((m) => m.subject === `Receipt ${second!.number} is void`)!;
    expect(voided.text).toContain("$20.00 of this payment was refunded.");
    await catcher.waitFor((m) => m.subject.startsWith("Corrected receipt"));
    // The plan goes on: the donation is not marked refunded; that month's charge is.
    const donation = await service.db
      .selectFrom("donations")
      .select("status")
      .where("id", "=", donationId)
      .executeTakeFirstOrThrow();
    expect(donation.status).toBe("succeeded");
    const charges = await service.db
      .selectFrom("charges")
      .select(["id", "status"])
      .where("donation_id", "=", donationId)
      .execute();
    expect(charges.find((c) => c.id === second!.charge_id)!.status).toBe("refunded");
    expect(charges.find((c) => c.id === first!.charge_id)!.status).toBe("succeeded");
  });
});
