/**
 * A remembered device as a donor knows it: "Chrome on Android", not the user agent the pool
 * stored. Parsed with ua-parser-js (1.x, MIT; 2.x changed to AGPL). A name that is not a user
 * agent (set by the donor or another app) is shown as it is. The account page loads this module
 * on demand (security-section.tsx), so the parser is not part of the page's up-front code.
 */
import { UAParser } from "ua-parser-js";
import { looksLikeUserAgent, plainDeviceName } from "./plain-device-name.js";

/** Browser names as people say them: the parser's "Mobile Safari" is Safari on a phone. */
const BROWSER: Record<string, string> = {
  "Mobile Safari": "Safari",
  "Chrome Headless": "Chrome",
  "Chrome WebView": "Chrome",
  "Mobile Chrome": "Chrome",
  "Mobile Firefox": "Firefox",
  "Samsung Browser": "Samsung Internet",
  Edge: "Edge",
};
const OS: Record<string, string> = { "Mac OS": "macOS", "Chromium OS": "ChromeOS" };

export function deviceName(stored: string | undefined): string {
  if (!stored?.trim() || !looksLikeUserAgent(stored)) return plainDeviceName(stored);
  const ua = new UAParser(stored).getResult();
  const browser = ua.browser.name ? (BROWSER[ua.browser.name] ?? ua.browser.name) : undefined;
  const os = ua.os.name ? (OS[ua.os.name] ?? ua.os.name) : undefined;
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  if (os) return `A browser on ${os}`;
  return "An unknown browser";
}
