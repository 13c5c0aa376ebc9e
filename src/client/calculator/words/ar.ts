/**
 * The calculator's own words in Modern Standard Arabic (see en.ts for how they are used). Amounts,
 * grams, percentages and dates come from Intl for `locale` (Arabic month names, Latin digits, as
 * the donor types amounts); counts from Intl.PluralRules. `errors` translates every message
 * src/zakat's parsers can give, by its English text (test/client/calculator/words.test.ts checks
 * each one the parsers produce has a translation here).
 */
import type { CalculatorWords } from "./en.js";

export const calcAr: CalculatorWords = {
  locale: "ar-AE-u-nu-latn",
  intl: true,
  formLabel: "حاسبة الزكاة",
  yearLegend: "بأي سنة تحسب زكاتك؟",
  years: { lunar: "السنة القمرية (الهجرية): {rate}", solar: "السنة الشمسية (الميلادية): {rate}" },
  yearNames: { lunar: "السنة القمرية", solar: "السنة الشمسية" },
  nisabLegend: "بأي نصاب تقيس مالك؟",
  nisabOption: "{metal}: {grams}، {amount}",
  nisabSentence: {
    silver:
      "اختيارنا الافتراضي، كما يوصي مجلس الإفتاء الأسترالي: هو النصاب الأدنى، فيدفع الزكاة عدد أكبر من الناس ويستفيد منها عدد أكبر من المحتاجين.",
    gold: "اختره إن كنت تتبع العلماء الذين يقدّرون النصاب بالذهب: هو النصاب الأعلى، فتجب الزكاة على عدد أقل من الناس.",
  },
  metals: { gold: "الذهب", silver: "الفضة" },
  hint: "أدخل المبالغ بالدولار الأسترالي كما تكتبها عادةً، مثل 1,200.50، واترك ما لا تملكه. تبقى أرقامك في هذا المتصفح ولا تُرسل إلينا.",
  groups: {
    cash: "النقد والحسابات المصرفية",
    metals: "الذهب والفضة",
    shares: "الأسهم",
    receivables: "ديون لك على الآخرين",
    business: "التجارة",
    property: "عقارات بقصد البيع",
    crypto: "العملات الرقمية",
    super: "صندوق التقاعد (السوبر)",
    other: "أموال أخرى",
    liabilities: "ما عليك الآن",
  },
  labels: {
    cash: "النقد والأرصدة المصرفية (ومنها حسابات الموازنة)",
    gold: "الذهب",
    silver: "الفضة",
    sharesTrading: "أسهم بقصد المتاجرة (بقيمتها السوقية)",
    sharesLongTerm: "أسهم طويلة الأجل (بقيمتها السوقية)",
    receivables: "ديون لك تتوقع استردادها",
    businessCash: "نقد التجارة",
    businessStock: "بضاعة التجارة (بسعر البيع)",
    businessReceivables: "ديون التجارة على العملاء",
    propertyForResale: "عقارات اشتريتها لإعادة بيعها",
    crypto: "العملات الرقمية",
    superVoluntary: "المساهمات الطوعية في صندوق التقاعد التي تتصرف فيها",
    other: "أموال أخرى",
    debts: "ديون حالّة الآن",
    billsAndTax: "فواتير وضرائب مستحقة",
    wagesOwed: "أجور مستحقة عليك",
    loanInstalments: "الأقساط الحالية للقروض طويلة الأجل",
  },
  sharesHint: "يُحتسب {percent} من القيمة السوقية، وهو تقديرنا للجزء الزكوي من أصول الشركات.",
  metalItem: { gold: "قطعة الذهب {n}", silver: "قطعة الفضة {n}" },
  howToEnter: "طريقة إدخال {item}",
  byWeight: "بالوزن والعيار",
  byValue: "بالقيمة",
  weightLabel: "الوزن بالغرام",
  purityIn: "العيار بـ",
  carats: "القيراط",
  thousandths: "الأجزاء من الألف (الدمغة)",
  purityLabel: "العيار",
  purityHint: { carat: "بالقيراط، مثل 18 أو 22", thousandths: "رقم الدمغة، مثل 916 أو 999" },
  valueLabel: "القيمة بالدولار",
  remove: "إزالة {item}",
  addItem: { gold: "أضف قطعة ذهب أخرى", silver: "أضف قطعة فضة أخرى" },
  next: "التالي: {section}",
  seeResult: "اعرض النتيجة",
  clear: "امسح أرقامي",
  cleared: "مُسحت أرقامك من هذا النموذج ومن هذا المتصفح.",
  restored: "عادت أرقامك.",
  bringBack: "أعد أرقامي",
  sectionCheck: "راجع هذا القسم",
  sectionPending: "المجموع قيد الحساب",
  less: "ناقص {amount}",
  resultHeading: "زكاتك",
  zakatDue: "الزكاة الواجبة",
  checkFields: {
    one: "راجع الحقل المشار إليه في النموذج، وستتحدث النتيجة عند تصحيحه.",
    two: "راجع الحقلين المشار إليهما في النموذج، وستتحدث النتيجة عند تصحيحهما.",
    few: "راجع {n} حقول مشار إليها في النموذج، وستتحدث النتيجة عند تصحيحها.",
    many: "راجع {n} حقلًا مشارًا إليها في النموذج، وستتحدث النتيجة عند تصحيحها.",
    other: "راجع {n} حقل مشار إليها في النموذج، وستتحدث النتيجة عند تصحيحها.",
  },
  summaryBelow: "أموالك {assets} ناقص ما عليك {liabilities} يساوي {net}، وهو دون النصاب البالغ {nisab}: لا زكاة عليك.",
  summaryDue:
    "أموالك {assets} ناقص ما عليك {liabilities} يساوي {net}، وهو يبلغ النصاب البالغ {nisab} أو يزيد عليه: الزكاة الواجبة بنسبة {rate} هي {due}.",
  explainNisab: "النصاب ({grams} من {metal} بسعر {price} للغرام)",
  totalAssets: "مجموع الأموال الزكوية",
  liabilitiesDue: "الديون الحالّة الآن",
  net: "صافي المال الزكوي",
  rate: "النسبة ({year})",
  counted: "ما احتُسب",
  detailWeight: "{grams} من {metal} عيار {purity} بسعر {price} لغرام {metal} الخالص",
  detailValue: "بالقيمة",
  purityText: { carat: "{n} قيراط", thousandths: "{n} من الألف" },
  detailShares: "يُحتسب {percent} من {amount}",
  pricesAsAt: "الأسعار بتاريخ {date}",
  pricesAge: "الأسعار بتاريخ {date} ({ago})",
  futureDate: "تاريخ لاحق",
  staleWarning:
    "مضى على أسعار الذهب والفضة هذه أكثر من {days} يومًا، فقد يختلف النصاب المعروض عن نصاب اليوم. تحقق من الأسعار الحالية قبل الاعتماد عليه.",
  payMyZakat: "ادفع زكاتي",
  nothingDue: "لا زكاة عليك، فلا شيء تدفعه. ويمكنك التصدق في أي وقت.",
  barDue: "الزكاة الواجبة: ",
  barCheck: "راجع الحقول المشار إليها",
  payThis: "ادفع هذا المبلغ",
  seeDetails: "اعرض التفاصيل",
  errorLink: "{item}: {part}",
  fieldPart: { grams: "الوزن بالغرام", purity: "العيار", amount: "القيمة" },
  errors: {
    "Enter an amount in dollars, like 1,200.50.": "أدخل مبلغًا بالدولار، مثل 1,200.50.",
    "Amounts cannot be negative. Enter the amount without a minus sign, like 1,200.50.":
      "لا يكون المبلغ سالبًا. أدخله دون إشارة الطرح، مثل 1,200.50.",
    "Check the commas: group thousands in threes, like 1,200.50, and put cents after a full stop.":
      "راجع الفواصل: افصل كل ثلاث خانات من الآلاف، مثل 1,200.50، وضع السنتات بعد النقطة.",
    "Enter at most two decimal places for cents, like 10.55.": "أدخل خانتين عشريتين على الأكثر للسنتات، مثل 10.55.",
    "That amount is too large to be right. Check it and enter it in dollars, like 1,200.50.":
      "هذا المبلغ أكبر من أن يكون صحيحًا. راجعه وأدخله بالدولار، مثل 1,200.50.",
    "Enter the weight in grams, like 12.5.": "أدخل الوزن بالغرام، مثل 12.5.",
    "A weight cannot be negative. Enter it in grams without a minus sign, like 12.5.":
      "لا يكون الوزن سالبًا. أدخله بالغرام دون إشارة الطرح، مثل 12.5.",
    "Check the commas: group thousands in threes, like 1,250.5.":
      "راجع الفواصل: افصل كل ثلاث خانات من الآلاف، مثل 1,250.5.",
    "Enter the weight with at most three decimal places, like 12.125.":
      "أدخل الوزن بثلاث خانات عشرية على الأكثر، مثل 12.125.",
    "That weight is too large to be right. Check it and enter it in grams, like 12.5.":
      "هذا الوزن أكبر من أن يكون صحيحًا. راجعه وأدخله بالغرام، مثل 12.5.",
    "Enter the purity in carats from 1 to 24, like 18 for 18 carat gold.":
      "أدخل العيار بالقيراط من 1 إلى 24، مثل 18 للذهب عيار 18.",
    "Enter the purity in thousandths from 1 to 1000, like 916 or 999, the number stamped on the item.":
      "أدخل العيار بالأجزاء من الألف من 1 إلى 1000، مثل 916 أو 999، وهو الرقم المدموغ على القطعة.",
    "Enter the purity with at most one decimal place, like 18 for 18 carat gold.":
      "أدخل العيار بخانة عشرية واحدة على الأكثر، مثل 18 للذهب عيار 18.",
    "Enter the purity with at most one decimal place, like 916 or 999, the number stamped on the item.":
      "أدخل العيار بخانة عشرية واحدة على الأكثر، مثل 916 أو 999، وهو الرقم المدموغ على القطعة.",
  },
  caratHallmark: "القيراط من 1 إلى 24. لرقم دمغة مثل {value}، اختر الأجزاء من الألف.",
};
