/**
 * The site's own words around the content (header, menu, footer) in Modern Standard Arabic.
 * The foundation's name follows the Arabic home page's own wording ("المؤسسة الوطنية للزكاة").
 */
import { inEnglishWords } from "./in-english.js";
import type { ChromeStrings } from "./en.js";

export const ar: ChromeStrings = {
  languageName: "العربية",
  skipToContent: "انتقل إلى المحتوى",
  menu: "القائمة",
  mainNavigation: "التنقل الرئيسي",
  languages: "اللغات",
  readIn: "اقرأ هذه الصفحة باللغة",
  homeIn: "الصفحة الرئيسية باللغة",
  donate: "تبرّع",
  siteName: "المؤسسة الوطنية للزكاة",
  contactUs: "اتصل بنا",
  more: "المزيد",
  followUs: "تابعنا",
  abn: "الرقم التجاري الأسترالي (ABN)",
  updatesHeading: "النشرة البريدية",
  updatesEmail: "بريدك الإلكتروني للنشرة",
  updatesConsent: "أرسلوا إليّ أخبار المؤسسة ونداءاتها بالبريد الإلكتروني. يمكنني إلغاء الاشتراك في أي وقت.",
  updatesSubmit: "اشترك",
  updatesSending: "جارٍ الاشتراك…",
  updatesSent: "شكرًا لك. افتح الرسالة التي أرسلناها إليك وأكّد اشتراكك، ثم تبدأ رسائلنا.",
  updatesFailed: "تعذّر الاشتراك. يرجى المحاولة مرة أخرى بعد قليل.",
  inEnglish: inEnglishWords("ar"),
};
