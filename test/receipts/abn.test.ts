import { describe, expect, it } from "vitest";
import { abnDigits, formatAbn, isValidAbn } from "../../src/receipts/abn.js";

describe("ABN", () => {
  it("accepts an ABN whose check digits add up, with or without spaces", () => {
    // The Australian Business Register's worked example.
    expect(isValidAbn("51 824 753 556")).toBe(true);
    expect(isValidAbn("51824753556")).toBe(true);
    expect(formatAbn("51824753556")).toBe("51 824 753 556");
  });

  it("refuses a typo, a wrong length and letters", () => {
    for (const bad of [
      "51 824 753 557",
      "15 824 753 556",
      "5182475355",
      "518247535561",
      "5182475355a",
      "",
      "00000000000",
    ])
      expect(isValidAbn(bad), bad).toBe(false);
    expect(abnDigits("51-824-753-556")).toBeNull();
    expect(() => formatAbn("123")).toThrow(RangeError);
  });
});
