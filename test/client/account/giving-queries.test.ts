/** What the history says of each payment's state: a plan's failed payment says what the donor can do. */
import { describe, expect, it } from "vitest";
import { donationStatusName } from "../../../src/client/account/giving-queries.js";

describe("a payment's state in the history", () => {
  it("a one-off gift that failed says nothing was charged", () => {
    expect(donationStatusName("FAILED")).toBe("Failed: nothing was charged");
  });

  it("a plan's later payment that failed says so and points to Change card", () => {
    const said = donationStatusName("FAILED", true);
    expect(said).toMatch(/^Failed: nothing was charged\. Your bank declined this payment/);
    expect(said).toContain("Change card under Regular gifts");
    expect(donationStatusName("SUCCEEDED", true)).toBe("Paid");
  });
});
