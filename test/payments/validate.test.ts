import { describe, expect, it } from "vitest";
import { DEFAULT_FUND_RULES, withContentLimits } from "../../src/payments/fund-rules.js";
import { validateDonation, validateDonationRequest, type DonationForm } from "../../src/payments/validate.js";
import type { FieldError } from "../../src/payments/types.js";

const donor = { firstName: "Aisha", lastName: "Rahman", email: "aisha@example.com.au", phone: "0412 345 678" };
const form = (over: Partial<DonationForm> = {}): DonationForm => ({
  fund: "zakat",
  amount: "50",
  frequency: "once",
  donor,
  ...over,
});
const messages = (result: ReturnType<typeof validateDonation>): Record<string, string> => {
  if (result.ok) throw new Error("expected errors");
  return Object.fromEntries(result.errors.map((e: FieldError) => [e.field, e.message]));
};

describe("validateDonation (the form as typed)", () => {
  it("turns a valid form into the request body", () => {
    const result = validateDonation(
      form({ amount: "$1,250.50", coverFees: true, dedication: "  For my late father  " }),
      DEFAULT_FUND_RULES.zakat,
    );
    expect(result).toEqual({
      ok: true,
      request: {
        fund: "zakat",
        amountCents: 125050,
        currency: "AUD",
        frequency: "once",
        donor,
        anonymous: false,
        coverFees: true,
        dedication: "For my late father",
      },
    });
  });

  it.each([
    ["9.99", "The minimum gift is $10."],
    ["100000.01", "The maximum gift online is $100,000. For a larger gift, please contact us."],
    ["10.123", "Enter the amount in dollars and cents, with no more than two decimal places."],
    ["ten", "Enter the amount as a number, like 50 or 50.25."],
    ["", "Enter an amount."],
  ])("amount %j: %s", (amount, message) => {
    expect(messages(validateDonation(form({ amount }), DEFAULT_FUND_RULES.zakat))).toEqual({ amount: message });
  });

  it("accepts exactly the minimum and the maximum", () => {
    expect(validateDonation(form({ amount: "10" }), DEFAULT_FUND_RULES.zakat).ok).toBe(true);
    expect(validateDonation(form({ amount: "100,000.00" }), DEFAULT_FUND_RULES.zakat).ok).toBe(true);
  });

  it("puts a message beside every missing or malformed field at once", () => {
    const result = validateDonation(
      form({ donor: { firstName: " ", email: "aisha@example", phone: "12" } }),
      DEFAULT_FUND_RULES.zakat,
    );
    expect(messages(result)).toEqual({
      "donor.firstName": "Enter your first name.",
      "donor.lastName": "Enter your last name.",
      "donor.email": "Enter an e-mail address, like name@example.com.",
      "donor.phone": "Enter a phone number, like 0412 345 678.",
    });
  });

  it("takes a phone number and postcode typed in Arabic-Indic digits as the same number, kept in ASCII", () => {
    const result = validateDonation(
      form({
        donor: {
          ...donor,
          phone: "٠٤١٢ ٣٤٥ ٦٧٨",
          address: { line1: "1 George St", suburb: "Sydney", postcode: "٢٠٠٠", country: "AU" },
        },
      }),
      DEFAULT_FUND_RULES.zakat,
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.request.donor.phone).toBe("0412 345 678");
      expect(result.request.donor.address?.postcode).toBe("2000");
    }
  });

  it("asks for e-mail and phone when they are empty", () => {
    expect(
      messages(validateDonation(form({ donor: { firstName: "A", lastName: "B" } }), DEFAULT_FUND_RULES.zakat)),
    ).toEqual({
      "donor.email": "Enter your e-mail address.",
      "donor.phone": "Enter your phone number.",
    });
  });

  it("leaves the address optional, but a started one must be complete", () => {
    expect(
      validateDonation(form({ donor: { ...donor, address: { line1: "", suburb: "" } } }), DEFAULT_FUND_RULES.zakat).ok,
    ).toBe(true);
    expect(
      messages(
        validateDonation(
          form({ donor: { ...donor, address: { line1: "1 George St", postcode: "20000" } } }),
          DEFAULT_FUND_RULES.zakat,
        ),
      ),
    ).toEqual({
      "donor.address.suburb": "Enter the suburb or town.",
      "donor.address.postcode": "Enter a 4-digit postcode.",
    });
  });

  it("counts fitr per person at the unit price, within the limits", () => {
    const result = validateDonation({ fund: "fitr", quantity: "3", frequency: "once", donor }, DEFAULT_FUND_RULES.fitr);
    expect(result.ok && result.request.amountCents).toBe(4500);
    expect(result.ok && result.request.quantity).toEqual({ count: 3, unitCents: 1500 });
    expect(
      messages(validateDonation({ fund: "fitr", quantity: "0", frequency: "once", donor }, DEFAULT_FUND_RULES.fitr)),
    ).toEqual({
      quantity: "Enter how many people, from 1 to 50.",
    });
  });

  it("prices qurban by the chosen option, named by its code", () => {
    const result = validateDonation(
      { fund: "qurban", quantity: "2", option: "lamb-australia", frequency: "once", donor },
      DEFAULT_FUND_RULES.qurban,
    );
    // Lamb (in Australia) is $450 in the sample content and the backend: 2 × 45000 cents.
    expect(result.ok && result.request.quantity).toEqual({ count: 2, unitCents: 45000, optionId: "lamb-australia" });
    expect(result.ok && result.request.amountCents).toBe(90000);
    const goat = validateDonation(
      { fund: "qurban", quantity: "1", option: "goat-overseas", frequency: "once", donor },
      DEFAULT_FUND_RULES.qurban,
    );
    expect(goat.ok && goat.request.amountCents).toBe(15000);
    expect(
      messages(
        validateDonation({ fund: "qurban", quantity: "2", frequency: "once", donor }, DEFAULT_FUND_RULES.qurban),
      ),
    ).toEqual({
      "quantity.optionId": "Choose one of the options shown.",
    });
    expect(
      messages(
        validateDonation(
          { fund: "qurban", quantity: "21", option: "camel", frequency: "once", donor },
          DEFAULT_FUND_RULES.qurban,
        ),
      ),
    ).toEqual({
      "quantity.optionId": "That option is no longer offered. Please reload the page and choose again.",
      quantity: "Enter how many animals, from 1 to 20.",
    });
  });

  it("offers only the schedules the fund's page allows, and needs the season for seasonal ones", () => {
    expect(
      messages(validateDonation(form({ fund: "fitr", quantity: 1, frequency: "monthly" }), DEFAULT_FUND_RULES.fitr)),
    ).toEqual({
      frequency: "Choose how often to give from the options shown.",
    });
    const ramadan = validateDonation(
      form({ fund: "ramadan", frequency: "ramadan-last-ten" }),
      DEFAULT_FUND_RULES.ramadan,
    );
    expect(ramadan.ok ? [] : ramadan.errors.map((e) => [e.field, e.code])).toEqual([["season", "season_required"]]);
  });

  it("uses the editor's narrower minimum, but never a looser one than the backend's", () => {
    const stricter = withContentLimits(DEFAULT_FUND_RULES.sadaqah, { minimumAmount: 20 });
    expect(messages(validateDonation(form({ fund: "sadaqah", amount: "15" }), stricter))).toEqual({
      amount: "The minimum gift is $20.",
    });
    const looser = withContentLimits(DEFAULT_FUND_RULES.sadaqah, { minimumAmount: 5, maximumAmount: 1_000_000 });
    expect(looser.minimumCents).toBe(1000);
    expect(looser.maximumCents).toBe(10_000_000);
  });
});

describe("validateDonationRequest (the server's view)", () => {
  const rulesFor = (fund: keyof typeof DEFAULT_FUND_RULES) => DEFAULT_FUND_RULES[fund];
  const body = {
    fund: "zakat",
    amountCents: 5000,
    currency: "AUD",
    frequency: "once",
    donor,
    anonymous: true,
    coverFees: false,
  };

  it("gives the same message as the form for the same mistake", () => {
    const server = validateDonationRequest({ ...body, amountCents: 999 }, rulesFor);
    const browser = validateDonation(form({ amount: "9.99" }), DEFAULT_FUND_RULES.zakat);
    expect(server.ok ? null : server.errors).toEqual(browser.ok ? [] : browser.errors);
    expect(server.ok ? null : server.errors[0]!.message).toBe("The minimum gift is $10.");
  });

  it("refuses what a browser form could not send", () => {
    const result = validateDonationRequest({ ...body, amountCents: 50.5, currency: "USD", anonymous: "yes" }, rulesFor);
    expect(result.ok ? [] : result.errors.map((e) => [e.field, e.code]).sort()).toEqual([
      ["amount", "not_a_number"],
      ["anonymous", "invalid"],
      ["currency", "not_allowed"],
    ]);
    expect(validateDonationRequest({ ...body, fund: "bitcoin" }, rulesFor)).toMatchObject({
      ok: false,
      errors: [{ field: "fund", code: "not_allowed" }],
    });
    expect(validateDonationRequest("not an object", rulesFor).ok).toBe(false);
  });

  it("notices a unit price that no longer matches", () => {
    const fitr = { ...body, fund: "fitr", amountCents: 3000, quantity: { count: 2, unitCents: 1400 } };
    expect(validateDonationRequest(fitr, rulesFor)).toMatchObject({
      ok: false,
      errors: [
        {
          field: "quantity.unitCents",
          code: "price_changed",
          message: "The price is $15, not $14. Please reload the page to see the current prices, then try again.",
        },
      ],
    });
    expect(
      validateDonationRequest({ ...fitr, amountCents: 3000, quantity: { count: 2, unitCents: 1500 } }, rulesFor).ok,
    ).toBe(true);
  });
});
