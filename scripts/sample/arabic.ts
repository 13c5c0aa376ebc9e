/**
 * The Arabic (ar-ae) versions of the home and zakat pages. They share their type with the English
 * documents, so generate.ts lists each as the other's alternate language.
 */
import { ZAKAT_PRESETS } from "./donation-pages.js";
import {
  callToAction,
  docLink,
  h2,
  image,
  p,
  paras,
  quote,
  rt,
  seo,
  stats,
  title,
  ul,
  type DocSpec,
} from "./helpers.js";

const AR = "ar-ae" as const;

export function arabicDocuments(): DocSpec[] {
  return [
    {
      type: "home_page",
      lang: AR,
      published: "2026-02-20",
      updated: "2026-10-31",
      slugFrom: "زكاتك للمحتاجين في أستراليا",
      data: {
        title: title("زكاتك للمحتاجين في أستراليا"),
        hero_text: rt(
          p(
            "تجمع المؤسسة الوطنية للزكاة زكاة المسلمين في أستراليا وتصرفها على المسلمين المحتاجين **هنا**، خلال أسابيع، وتصل كل دولار من الزكاة إلى مستحقيه.",
          ),
        ),
        hero_image: image("hero-home.jpg", "تدرّج بنفسجي مع أقواس ذهبية وعبارة Zakat that stays local"),
        primary_cta_label: "ادفع زكاتك",
        primary_cta_link: docLink("zakat", undefined, AR),
        secondary_cta_label: "احسب زكاتك",
        secondary_cta_link: docLink("calculate_page"),
        featured_cases: [
          { case: docLink("case", "rent-arrears-after-job-loss") },
          { case: docLink("case", "bond-for-a-new-start") },
        ],
        slices: [
          stats("السنة المالية الماضية", [
            ["4.2 مليون دولار", "زكاة مصروفة"],
            ["1,215", "أسرة مستفيدة"],
            ["6 أيام", "متوسط مدة البت في الطلب"],
          ]),
          quote(
            "كان الوكيل قد أرسل لنا إنذار الإخلاء. بعد يومين من اتصالي سُدّدت المتأخرات، ولم يضطر أطفالي إلى تغيير مدارسهم.",
            "أب من غرب سيدني",
          ),
          callToAction(
            "هل أنت مستعد لدفع زكاتك؟",
            paras("تستغرق العملية دقيقتين، وتصلك الإيصالات بالبريد الإلكتروني."),
            "ادفع الزكاة الآن",
            docLink("zakat", undefined, AR),
          ),
        ],
        ...seo({
          title: "المؤسسة الوطنية للزكاة | ادفع زكاتك في أستراليا",
          description: "احسب زكاتك وادفعها عبر الإنترنت لدعم المسلمين المحتاجين في أستراليا.",
        }),
      },
    },
    {
      type: "zakat",
      lang: AR,
      published: "2026-02-20",
      updated: "2026-10-30",
      slugFrom: "ادفع زكاتك",
      data: {
        title: title("ادفع زكاتك"),
        intro: paras(
          "الزكاة هي الركن الثالث من أركان الإسلام: ربع العشر (2.5%) من المال الذي بلغ النصاب وحال عليه الحول. ادفعها هنا ونوصلها إلى مستحقيها في أستراليا.",
        ),
        body: rt(
          h2("أين تذهب زكاتك"),
          p(
            "تُصرف كل دولار من الزكاة على المستحقين من الأصناف الثمانية المذكورة في القرآن الكريم (التوبة: 60). أما مصاريفنا التشغيلية فتُموَّل من الصدقات والمنح، فلا تُستخدم زكاتك أبداً في تغطية نفقاتنا.",
          ),
          ul(
            "متأخرات الإيجار والتأمين والفواتير للأسر المهددة بفقدان مسكنها",
            "منح طارئة بعد المرض أو الحوادث أو الوفاة",
            "تكاليف الدراسة التي تؤدي إلى العمل",
          ),
          p("لست متأكداً من المبلغ؟ استخدم [حاسبة الزكاة](doc:calculate_page)."),
        ),
        hero_image: image("hero-zakat.jpg", "أقواس ودوائر بنفسجية مع عبارة Pay your zakat"),
        fund_summary: "زكاتك تُدفع كاملة للمسلمين المحتاجين في أستراليا.",
        presets: ZAKAT_PRESETS.map(([amount]) => ({
          amount,
          label: `${String(amount).replace(/\B(?=(\d{3})+$)/g, ",")} دولار`,
        })),
        minimum_amount: 10,
        maximum_amount: 100000,
        default_amount: 250,
        ...seo(),
      },
    },
  ];
}
