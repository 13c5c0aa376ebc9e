/** What the security section says about devices and authenticator codes (no DOM needed). */
import { describe, expect, it } from "vitest";
import QRCode from "qrcode";
import { keyGroups, qrMatrix, qrPath } from "../../../src/client/account/authenticator-key.js";
import { deviceName } from "../../../src/client/account/device-name.js";
import { plainDeviceName } from "../../../src/client/account/plain-device-name.js";
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

  it("without the parser (its chunk could not load), never shows a raw user agent", () => {
    expect(plainDeviceName("Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36")).toBe("A web browser");
    expect(plainDeviceName("Amina's laptop")).toBe("Amina's laptop");
    expect(plainDeviceName("  ")).toBe("A device without a name");
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

  it("draws the matrix it loads on demand: one 1×1 square per dark module, inside a 4-module quiet zone", async () => {
    const uri = "otpauth://totp/NZF:amina%40example.org?secret=JBSWY3DPEHPK3PXP&issuer=NZF";
    const modules = await qrMatrix(uri);
    const expected = QRCode.create(uri, { errorCorrectionLevel: "M" }).modules;
    expect(modules.size).toBe(expected.size);
    const { d, full } = qrPath(modules);
    expect(full).toBe(modules.size + 8);
    let dark = 0;
    for (let y = 0; y < expected.size; y++) for (let x = 0; x < expected.size; x++) if (expected.get(y, x)) dark++;
    expect(d.match(/M\d+ \d+h1v1h-1z/g)).toHaveLength(dark);
    // The top-left finder pattern starts just inside the quiet zone.
    expect(d.startsWith("M4 4h1v1h-1z")).toBe(true);
  });
});
