/**
 * The site's side of the enquiry and updates endpoints (issue 39, item 5), in Chromium against the
 * real service with an SMTP catcher: the contact page's enquiry form, the footer's sign-up and the
 * donation form's "keep me updated" box each post to the service; a refusal is the service's coded
 * error, said beside the field or in the status line, and what was typed stays.
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectAxeClean } from "../support/account-page.js";
import { proxyOf, watchProblems } from "../support/browser.js";
import { fillDonor } from "../support/donation-request.js";
import { startMailingService, type MailingService } from "../support/mailing-service.js";
import { type SiteWithService, startSiteWithService } from "../support/site-with-service.js";

const START = new Date("2026-12-03T01:00:00Z");
let mailing: MailingService;
let web: SiteWithService;
let site: { url: string };
let context: BrowserContext;

beforeAll(async () => {
  mailing = await startMailingService({ start: START });
  web = await startSiteWithService(mailing.service);
  ({ site, context } = web);
}, 180_000);
afterAll(async () => {
  await web?.stop();
  await mailing?.stop();
});
beforeEach(async () => {
  await mailing.reset(START);
});

const subscriber = (email: string) =>
  mailing.service.db
    .withTables<{
      update_subscribers: { email: string; status: string; consent_source: string; consent_text: string };
    }>()
    .selectFrom("update_subscribers")
    .selectAll()
    .where("email", "=", email)
    .executeTakeFirst();
const enquiries = () =>
  mailing.service.db
    .withTables<{ enquiries: { id: string; email: string; topic: string; message: string } }>()
    .selectFrom("enquiries")
    .selectAll()
    .execute();
const invalid = (page: Page, label: string) => page.getByLabel(label, { exact: true }).getAttribute("aria-invalid");

describe("the contact page's enquiry form", { timeout: 90_000 }, () => {
  it("says what is missing, keeps what was typed through the service's refusal, then sends one enquiry", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await page.goto(`${site.url}/contact/`);
    await page.getByRole("button", { name: "Send message" }).click();
    // Checked before anything is sent: each field says what it needs, focus on the first.
    await expect.poll(() => invalid(page, "Your name")).toBe("true");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent)).toBe(
      "Your name",
    );
    expect(await page.locator(".contact-form .don-error").allTextContents()).toEqual([
      "Please enter your name.",
      "Please enter your e-mail address.",
      "Please choose what your message is about.",
      "Please enter your message.",
    ]);
    await expectAxeClean(page, "the enquiry form with its errors");

    const message = "Is zakat due on my superannuation?\nThank you.";
    await page.getByLabel("Your name", { exact: true }).fill("Aisha Rahman");
    // Passes the form's own check, refused by the service's (no ";" in an address): its message, beside the field.
    await page.getByLabel("Your e-mail address", { exact: true }).fill("aisha;x@example.com");
    await page.getByLabel("What is it about?").selectOption("zakat");
    await page.getByLabel("Your message").fill(message);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect
      .poll(() => page.locator(".contact-form .don-error").allTextContents())
      .toEqual(["Please enter an e-mail address such as name@example.com."]);
    expect(await invalid(page, "Your e-mail address")).toBe("true");
    expect(await page.getByLabel("Your name", { exact: true }).inputValue()).toBe("Aisha Rahman");
    expect(await page.getByLabel("Your message").inputValue()).toBe(message);
    expect(await enquiries()).toEqual([]);

    // The service unreachable: said, with the code, and the message still there.
    await page.getByLabel("Your e-mail address", { exact: true }).fill("aisha@example.com");
    const stopRefusing = proxyOf(context).answer(`${web.apiUrl}/enquiries`, () => "fail");
    await page.getByRole("button", { name: "Send message" }).click();
    const alert = page.locator(".contact-form [role=alert]");
    await expect.poll(() => alert.getAttribute("data-error-code")).toBe("network");
    expect(await alert.textContent()).toContain("Your message is still here");
    expect(await page.getByLabel("Your message").inputValue()).toBe(message);
    stopRefusing();

    await page.getByRole("button", { name: "Send message" }).click();
    const done = page.getByRole("heading", { name: "Thank you, we have your message" });
    await done.waitFor();
    const id = await page.locator("[data-enquiry-id]").getAttribute("data-enquiry-id");
    expect(id).toMatch(/^ENQ-[0-9A-F]{8}$/);
    // Focus moves to the heading once it is shown (an effect after the render the heading came in).
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Thank you, we have your message");
    const stored = await enquiries();
    expect(stored).toMatchObject([{ id, email: "aisha@example.com", topic: "zakat", message }]);
    await mailing.catcher.waitFor((m) => m.to === "donorcare@nzf.org.au" && m.subject.startsWith(`Enquiry ${id}`));
    await mailing.catcher.waitFor((m) => m.to === "aisha@example.com" && m.text.includes(id!));
    expect(seen.pageErrors).toEqual([]);
    await page.close();
  });
});

describe("the footer's sign-up for e-mail updates", { timeout: 90_000 }, () => {
  it("records the consent words shown, sends the confirmation link, and keeps a refused address", async () => {
    const page = await context.newPage();
    const seen = watchProblems(page);
    await page.goto(`${site.url}/`);
    const footer = page.locator("[data-updates-signup]");
    await footer.waitFor({ state: "visible" });
    const field = footer.getByLabel("E-mail address for updates");
    await field.fill("reader@example");
    await footer.getByRole("button", { name: "Sign up" }).click();
    const status = footer.locator("[role=status]");
    await expect.poll(() => footer.getAttribute("data-error-code")).toBe("validation_failed");
    expect(await status.textContent()).toBe("Please enter an e-mail address such as name@example.com.");
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await field.inputValue()).toBe("reader@example");

    await field.fill("Reader@Example.com");
    await footer.getByRole("button", { name: "Sign up" }).click();
    await expect.poll(() => status.textContent()).toMatch(/^Thank you\. Please open the e-mail/);
    expect(await field.getAttribute("aria-invalid")).toBeNull();
    const consent = await footer.locator("#footer-updates-consent").textContent();
    expect(await subscriber("reader@example.com")).toMatchObject({
      status: "pending",
      consent_source: "footer",
      consent_text: consent,
    });
    const mail = await mailing.catcher.waitFor((m) => m.to === "reader@example.com");
    expect(mail.subject).toBe("Please confirm you want our e-mail updates");
    expect(mail.text).toContain(consent!);
    await expectAxeClean(page, "the footer's sign-up, answered");
    expect(seen.pageErrors).toEqual([]);
    await page.close();
  });
});

describe("the donation form's 'keep me updated'", { timeout: 90_000 }, () => {
  it("signs the donor up with the box's words as consent when the gift is made, and only when ticked", async () => {
    const page = await context.newPage();
    await page.goto(`${site.url}/pay/sadaqah/?amount=25`);
    await page.waitForSelector('[data-island="donation"][data-hydrated]');
    await fillDonor(page, {
      firstName: "Aisha",
      lastName: "Rahman",
      email: "updates@example.com",
      phone: "0412 345 678",
    });
    const box = page.getByLabel(/^Keep me updated/);
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    const note = page.locator("[data-updates]");
    await expect.poll(() => note.getAttribute("data-updates")).toBe("confirmation_sent");
    expect(await note.textContent()).toContain("updates@example.com");
    const words = await page.locator(`label[for="${await box.getAttribute("id")}"]`).textContent();
    expect(await subscriber("updates@example.com")).toMatchObject({
      status: "pending",
      consent_source: "donation-form",
      consent_text: words,
    });
    await page.close();

    // Not ticked: no sign-up.
    const other = await context.newPage();
    await other.goto(`${site.url}/pay/sadaqah/?amount=25`);
    await other.waitForSelector('[data-island="donation"][data-hydrated]');
    await fillDonor(other, {
      firstName: "Omar",
      lastName: "Ali",
      email: "no-updates@example.com",
      phone: "0412 345 678",
    });
    await other.getByRole("button", { name: "Continue to payment" }).click();
    await other.getByLabel("Card number").waitFor();
    expect(await subscriber("no-updates@example.com")).toBeUndefined();
    await other.close();
  });
});
