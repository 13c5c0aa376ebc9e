/** Pre-filling a donation form from the donor's profile: only empty fields, never what was typed. */
import { describe, expect, it } from "vitest";
import type { FormValues } from "../../../src/client/donation/form-state.js";
import { prefilled } from "../../../src/client/donation/signed-in-prefill.js";

const EMPTY: FormValues = {
  fund: "zakat",
  amount: "",
  quantity: "",
  option: "",
  frequency: "once",
  instalments: "12",
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  line1: "",
  line2: "",
  suburb: "",
  state: "",
  postcode: "",
  country: "AU",
  anonymous: false,
  keepUpdated: false,
  dedication: "",
  coverFees: false,
  paymentMethod: "card",
};

const PROFILE = {
  firstName: "Amina",
  lastName: "Khan",
  email: "amina@example.org",
  phone: "+61412345678",
  address: { line1: "1 Main St", suburb: "Lakemba", state: "nsw", postcode: "2195", country: "AU" },
};

describe("prefilled", () => {
  it("fills every empty field, the state as its code", () => {
    expect(prefilled(EMPTY, PROFILE)).toEqual({
      ...EMPTY,
      firstName: "Amina",
      lastName: "Khan",
      email: "amina@example.org",
      phone: "+61412345678",
      line1: "1 Main St",
      suburb: "Lakemba",
      state: "NSW",
      postcode: "2195",
    });
  });

  it("keeps what the donor typed or the form restored, field by field", () => {
    const typed = { ...EMPTY, firstName: "Aminah", email: "work@example.org", line1: "9 Other Rd" };
    const out = prefilled(typed, PROFILE);
    expect(out.firstName).toBe("Aminah");
    expect(out.lastName).toBe("Khan");
    expect(out.email).toBe("work@example.org");
    // An address already begun is the donor's: none of the profile's address is mixed into it.
    expect([out.line1, out.suburb, out.postcode, out.state]).toEqual(["9 Other Rd", "", "", ""]);
  });

  it("an overseas address sets its country and keeps the region as written; an unknown state is left out", () => {
    const nz = prefilled(EMPTY, { address: { line1: "1 Queen St", state: "Auckland", country: "nz" } });
    expect(nz.country).toBe("NZ");
    expect(nz.state).toBe("Auckland");
    const odd = prefilled(EMPTY, { address: { line1: "1 Main St", state: "Atlantis", country: "AU" } });
    expect(odd.state).toBe("");
  });
});
