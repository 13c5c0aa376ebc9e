/**
 * The signed-in donor's access token for a new gift (POST /donations), so the payments service
 * files the gift under their account: read from the session cookies the account page keeps, only
 * while it is live (no auth library on donation pages, so an expired one is not refreshed here:
 * the gift is then a guest's, which the donor can add to their account with a verified e-mail).
 */
import { liveAccessToken } from "../../auth/signed-in-profile.js";

export const donorAccessToken = (): string | null =>
  typeof document === "undefined" ? null : liveAccessToken(document.cookie);
