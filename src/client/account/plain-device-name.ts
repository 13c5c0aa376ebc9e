/**
 * A remembered device's name when the user-agent parser (device-name.ts, loaded on demand) could
 * not be loaded: never the raw user agent, which means nothing to a donor.
 */

/** A user agent starts with a product token such as "Mozilla/5.0"; anything else is a name. */
export const looksLikeUserAgent = (stored: string) => /^[A-Za-z][\w.-]*\/\S+/.test(stored);

export function plainDeviceName(stored: string | undefined): string {
  if (!stored?.trim()) return "A device without a name";
  return looksLikeUserAgent(stored) ? "A web browser" : stored;
}
