/** The site's own words around the content (header, menu, footer) in English. Content comes from Prismic. */
import { inEnglishWords } from "./in-english.js";
export const en = {
  /** The language's name in itself, for the language switcher. */
  languageName: "English",
  skipToContent: "Skip to content",
  menu: "Menu",
  mainNavigation: "Main",
  languages: "Languages",
  /** Said before the link to the same page in another language, for screen readers. */
  readIn: "Read this page in",
  /** Said before the link to another language's home page, when this page has no version in it. */
  homeIn: "Home page in",
  donate: "Donate",
  siteName: "National Zakat Foundation",
  contactUs: "Contact us",
  more: "More",
  followUs: "Follow us",
  abn: "ABN",
  /** The footer's sign-up for e-mail updates (src/client/site/updates-signup.ts). */
  updatesHeading: "E-mail updates",
  updatesEmail: "E-mail address for updates",
  /** The words a person agrees to by signing up: sent with the sign-up and kept with their consent. */
  updatesConsent: "Send me the foundation's news and appeals by e-mail. I can unsubscribe at any time.",
  updatesSubmit: "Sign up",
  updatesSending: "Signing you up…",
  updatesSent: "Thank you. Please open the e-mail we have sent you and confirm, then your updates start.",
  updatesFailed: "We could not sign you up. Please try again in a moment.",
  /** Said after a link to a page that has no version in this language (none for English, the site's first language). */
  inEnglish: inEnglishWords("en"),
};

export type ChromeStrings = typeof en;
