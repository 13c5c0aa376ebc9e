/** What the security section says about devices and authenticator codes (no DOM needed). */
import { describe, expect, it } from "vitest";
import QRCode from "qrcode";
import { keyGroups } from "../../../src/client/account/authenticator-key.js";
import { deviceName } from "../../../src/client/account/device-name.js";
import { totpCodeProblem } from "../../../src/client/account/two-step-section.js";

describe("device names", () => {
  it.each([
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      "Safari on iOS",
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on macOS"],
    ["Amina's laptop", "Amina's laptop"],
    ["", "A device without a name"],
    [undefined, "A device without a name"],
  ])("%s → %s", (ua, name) => {
    expect(deviceName(ua)).toBe(name);
  });
});

describe("authenticator setup", () => {
  it("groups the key in fours", () => {
    expect(keyGroups("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")).toEqual([
      "JBSW",
      "Y3DP",
      "EHPK",
      "3PXP",
      "JBSW",
      "Y3DP",
      "EHPK",
      "3PXP",
    ]);
    expect(keyGroups("ABCDEF")).toEqual(["ABCD", "EF"]);
  });

  it("says what is wrong with a typed code", () => {
    expect(totpCodeProblem("123456")).toBeNull();
    expect(totpCodeProblem("123 456")).toBeNull();
    expect(totpCodeProblem("12345")).toBe(
      "The code has 6 digits; you typed 5. Type the whole number your authenticator app shows.",
    );
    expect(totpCodeProblem("12a456")).toMatch(/^The code is 6 digits only, with no letters/);
  });

  it("the QR code carries the otpauth link (the matrix the page draws)", () => {
    const uri =
      "otpauth://totp/National%20Zakat%20Foundation:amina%40example.org?secret=JBSWY3DPEHPK3PXP&issuer=National%20Zakat%20Foundation";
    const { modules, version } = QRCode.create(uri, { errorCorrectionLevel: "M" });
    expect(modules.size).toBe(17 + 4 * version);
    // Finder pattern: the top-left corner module is dark.
    expect(modules.get(0, 0)).toBeTruthy();
  });
});
