/**
 * The donation and thank-you islands' words per language, chosen by the page's language at build
 * time (as templates/i18n/ does for the chrome): ar-ae and any other Arabic locale read the Arabic
 * dictionaries, every language without one reads the English. Imported by templates only: an island
 * receives its dictionary as a prop and never bundles another language's.
 */
import { ar } from "./ar.js";
import { en, type DonationWords } from "./en.js";
import { thanksAr } from "./thanks-ar.js";
import { thanksEn, type ThankYouWords } from "./thanks-en.js";

const primary = (lang: string) => lang.split("-")[0]!.toLowerCase();

export function donationWords(lang: string): DonationWords {
  return primary(lang) === "ar" ? ar : en;
}

export function thankYouWords(lang: string): ThankYouWords {
  return primary(lang) === "ar" ? thanksAr : thanksEn;
}
