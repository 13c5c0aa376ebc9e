/**
 * The Arabic (ar-ae) versions of the home page, the calculator, the page of funds and every pay
 * page. They share their type with the English documents, so generate.ts lists each as the
 * other's alternate language.
 */
import { ZAKAT_PRESETS } from "./donation-pages.js";
import {
  arabicImage,
  callToAction,
  docLink,
  h2,
  p,
  paras,
  quote,
  rt,
  seo,
  stats,
  title,
  ol,
  sceneAr,
  ul,
  type Data,
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
        hero_image: sceneAr("hero-home.jpg"),
        primary_cta_label: "ادفع زكاتك",
        primary_cta_link: docLink("zakat", undefined, AR),
        secondary_cta_label: "احسب زكاتك",
        secondary_cta_link: docLink("calculate_page", undefined, AR),
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
          p("لست متأكداً من المبلغ؟ استخدم [حاسبة الزكاة](doc:calculate_page@ar-ae)."),
          p("الزكاة لا تُخصم من الضرائب. يصلك إيصال بالبريد الإلكتروني لسجلاتك."),
        ),
        hero_image: sceneAr("hero-zakat.jpg"),
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

/** Arabic words for one English document: its title and the fields that hold text. */
interface ArabicVersion {
  title: string;
  data: Record<string, unknown>;
}

/** Presets' labels in Arabic: the amount alone repeats the button, so only a count or a word is said. */
const countLabels = (unit: [one: string, two: string, few: string, many: string]) => (n: number) =>
  n === 1 ? unit[0] : n === 2 ? unit[1] : n <= 10 ? `${n} ${unit[2]}` : `${n} ${unit[3]}`;
const people = countLabels(["شخص واحد", "شخصان", "أشخاص", "شخصًا"]);
const days = countLabels(["يوم واحد", "يومان", "أيام", "يومًا"]);
const dollars = (amount: number) => `${String(amount).replace(/\B(?=(\d{3})+$)/g, ",")} دولار`;

/** The pay pages other than zakat (arabicDocuments has it), the page of funds, and the calculator. */
const PAY_PAGES: Record<string, ArabicVersion> = {
  fitr: {
    title: "زكاة الفطر",
    data: {
      fund_summary: "15 دولارًا عن كل شخص، تُدفع قبل صلاة العيد.",
      intro: paras(
        "زكاة الفطر واجبة على كل مسلم يملك قوتًا زائدًا عن حاجته يوم عيد الفطر، عن نفسه وعن كل من يعول. قدرها هذا العام 15 دولارًا عن كل شخص.",
      ),
      body: rt(
        h2("متى تُدفع"),
        p(
          "ادفعها في أي وقت من رمضان، وقبل صلاة العيد على أبعد تقدير. نوزعها قسائم طعام على الأسر في أستراليا قبل العيد.",
        ),
        p("احسب كل من في بيتك، ومنهم الأطفال ومن تعولهم.."),
      ),
      presets: [15, 30, 60, 90].map((amount) => ({ amount, label: people(amount / 15) })),
      unit_label: "شخص",
    },
  },
  fidyah: {
    title: "الفدية",
    data: {
      fund_summary: "15 دولارًا عن كل يوم لا تستطيع قضاءه.",
      intro: paras(
        "إن منعك المرض أو الكبر من الصيام ولن تستطيع القضاء لاحقًا، فعليك الفدية: إطعام مسكين عن كل يوم أفطرته. نوصل فديتك طعامًا إلى المحتاجين في أستراليا.",
      ),
      body: rt(
        h2("الفدية أم الكفارة؟"),
        p("الفدية للأيام التي *لا تستطيع* قضاءها. أما من أفطر عمدًا بلا عذر فعليه الكفارة، وهي أمر آخر."),
      ),
      presets: [15, 150, 300, 450].map((amount) => ({ amount, label: days(amount / 15) })),
      unit_label: "يوم",
    },
  },
  sadaqah: {
    title: "تصدّق",
    data: {
      fund_summary: "صدقة تطوعية تموّل عملنا وتعين من لا تصلهم الزكاة.",
      intro: paras(
        "الصدقة كل ما يُعطى تطوعًا. تموّل الباحثين الاجتماعيين الذين يدرسون طلبات الزكاة، وتعين المحتاجين ممن لا يستحقون الزكاة.",
      ),
      body: rt(
        p("يبيّن إيصالك ما إذا كان تبرعك قابلًا للخصم من الضرائب."),
        p("تفضّل العطاء كل أسبوع؟ جرّب [عطاء الجمعة](doc:jumuah_giving@ar-ae)."),
      ),
      presets: [25, 50, 100, 250].map((amount) => ({ amount, label: dollars(amount) })),
    },
  },
  qurban: {
    title: "الأضحية",
    data: {
      fund_summary: "اختر أضحيتك؛ ويذهب لحمها إلى الأسر المحتاجة.",
      intro: paras(
        "الأضحية تُذبح يوم عيد الأضحى وأيام التشريق الثلاثة بعده. اختر مكان أضحيتك؛ ونوزع لحمها على الأسر التي نرعاها.",
      ),
      body: rt(
        h2("كيف تتم"),
        ul("اطلبها قبل يوم عيد الأضحى.", "يذبحها شركاء مرخّصون بعد صلاة العيد.", "نرسل إليك تأكيدًا بعد ذبح أضحيتك."),
      ),
      presets: [
        { amount: 110, label: "سُبع بقرة (خارج أستراليا)" },
        { amount: 150, label: "ماعز (خارج أستراليا)" },
        { amount: 450, label: "خروف (في أستراليا)" },
        { amount: 900, label: "خروفان (في أستراليا)" },
      ],
      unit_label: "أضحية",
      animal_options: [
        { code: "cow-share-overseas", option_label: "سُبع بقرة (خارج أستراليا)", option_price: 110 },
        { code: "goat-overseas", option_label: "ماعز (خارج أستراليا)", option_price: 150 },
        { code: "lamb-australia", option_label: "خروف (في أستراليا)", option_price: 450 },
      ],
    },
  },
  ramadan: {
    title: "العطاء في رمضان",
    data: {
      fund_summary: "ضاعف عطاءك في شهر القرآن.",
      intro: paras(
        "في رمضان يعطي كثير منا أكثر ما يعطي. يموّل عطاؤك في رمضان الطعام وإعانات الإيجار وهدايا العيد للأسر التي نرعاها.",
      ),
      body: rt(p("يبيّن إيصالك ما إذا كان تبرعك قابلًا للخصم من الضرائب.")),
      presets: [30, 100, 300, 500].map((amount) => ({ amount, label: dollars(amount) })),
    },
  },
  dhul_hijjah: {
    title: "العطاء في ذي الحجة",
    data: {
      fund_summary: "تصدّق في أفضل أيام السنة.",
      intro: paras(
        "العشر الأوائل من ذي الحجة من أفضل أيام السنة. تصدّق مرة واحدة، أو اجعل تبرعًا لكل يوم من الأيام العشرة.",
      ),
      body: rt(p("تبحث عن أضحيتك؟ انظر [الأضحية](doc:qurban@ar-ae).")),
      presets: [50, 100, 250, 500].map((amount) => ({ amount, label: dollars(amount) })),
    },
  },
  tainted_wealth: {
    title: "التخلص من المال غير الطيب",
    data: {
      fund_summary: "طهّر مالك من فوائد البنوك وغيرها من الكسب غير المباح.",
      intro: paras(
        "فوائد الحسابات المصرفية وغيرها من الكسب غير المباح يُتخلّص منها دون انتظار أجر. نصرفها في المنافع العامة فقط، ولا نصرفها زكاةً أبدًا.",
      ),
      body: rt(
        h2("ما يُعد مالًا غير طيب"),
        ul(
          "الفوائد المضافة إلى حسابات التوفير أو الحسابات الجارية",
          "أرباح الأنشطة التجارية غير المباحة بقدرها",
          "غرامات التأخير وغيرها من الدخل الذي لا يحل لك إبقاؤه",
        ),
        p("أخرج المبلغ كاملًا؛ فهو لا يُحتسب من زكاتك ولا يُخصم من الضرائب."),
      ),
      presets: [50, 100, 500, 1000].map((amount) => ({ amount, label: dollars(amount) })),
      purification_note: paras(
        "هذا تطهير للمال، وليس زكاة ولا صدقة: أخرجه دون انتظار أجر. لا يُحتسب من زكاتك أبدًا ولا يُخصم من الضرائب.",
      ),
    },
  },
  jumuah_giving: {
    title: "عطاء الجمعة",
    data: {
      fund_summary: "تبرع صغير كل يوم جمعة.",
      intro: paras("تصدّق بالقليل كل جمعة. التبرعات الصغيرة المنتظمة تصنع دعمًا ثابتًا للأسر التي نرعاها."),
      body: rt(p("اختر مبلغًا؛ ويُخصم كل يوم جمعة حتى تلغيه. يبيّن إيصالك ما إذا كان تبرعك قابلًا للخصم من الضرائب.")),
      presets: [5, 10, 20, 50].map((amount) => ({ amount, label: dollars(amount) })),
    },
  },
  pay_page: {
    title: "طرق التبرع",
    data: {
      intro: rt(
        p(
          "اختر الصندوق. تُدفع الزكاة لمستحقيها فقط؛ أما الصدقة فتموّل عملنا أيضًا. تُعالج كل دفعة بأمان ويصلك إيصالها بالبريد الإلكتروني.",
        ),
      ),
    },
  },
  calculate_page: {
    title: "حاسبة الزكاة",
    data: {
      intro: rt(
        p(
          "احسب الزكاة الواجبة في مالك في دقائق. أدخل ما تملك وما عليك في يوم زكاتك؛ فتقارنه الحاسبة بالنصاب وتبيّن لك المبلغ.",
        ),
      ),
      how_to: rt(
        p("تحتاج الحاسبة إلى JavaScript. ويمكنك الحساب يدويًا دونها:"),
        ol(
          "اجمع كل ما تملك مما تجب فيه الزكاة: النقد والذهب والفضة والأسهم وعروض التجارة والعملات الرقمية والديون المرجوّة لك.",
          "اطرح الديون الواجب سدادها الآن أو خلال اثني عشر شهرًا.",
          "إن بلغ الناتج النصاب (قيمة الفضة أو الذهب المبيّنة أدناه)، فاضربه في 2.5%.",
        ),
        p("ثم [ادفع زكاتك](doc:zakat@ar-ae)."),
      ),
      // The help under each section, in Arabic; the articles it points to exist only in English.
      help_cash: paras(
        "النقد في اليد وفي الحسابات المصرفية، ومنه المدخرات والودائع لأجل. لا تُدخل الفوائد الربوية: تخلّص منها على حدة بوصفها مالًا غير طيب.",
      ),
      help_gold_silver: paras(
        "ما تملكه من ذهب وفضة، ومنه الحلي، بقيمة وزن المعدن الخالص اليوم. اختلف العلماء في الحلي المستعملة للزينة، والحاسبة تحتسبها.",
      ),
      help_shares: rt(
        p(
          "الأسهم التي تتاجر بها: بقيمتها السوقية كاملة. الأسهم التي تحتفظ بها طويلًا: نحتسب 30% من قيمتها السوقية تقديرًا للجزء الزكوي من أصول الشركة. انظر [زكاة الأسهم وصناديق المؤشرات](doc:blog_article/zakat-on-shares-and-etfs).",
        ),
      ),
      help_receivables: paras("المال الذي لك على غيرك وسيرده إليك، كقرض لصديق. لا تُدخل الديون التي لا ترجو استردادها."),
      help_business: paras(
        "البضاعة المعدّة للبيع ونقد التجارة وما لك على عملائك. المعدات والمباني والمركبات المستعملة في العمل لا زكاة فيها.",
      ),
      help_property: paras(
        "العقار الذي اشتريته لتبيعه (مشروع تطوير مثلًا) بقيمته السوقية. لا يدخل بيتك ولا العقارات المؤجرة، أما الإيجار المدّخر فهو نقد.",
      ),
      help_crypto: paras("العملات الرقمية بقيمتها السوقية بالدولار الأسترالي في يوم زكاتك."),
      help_super: rt(
        p(
          "التقاعد الإلزامي (السوبر) **لا زكاة فيه** ما دمت لا تستطيع الوصول إليه. أدخل ما تستطيع سحبه الآن والمساهمات الطوعية التي يمكنك استردادها. انظر [هل أدفع الزكاة عن صندوق تقاعدي؟](doc:blog_article/zakat-on-superannuation)",
        ),
      ),
      help_other: paras("أي مال آخر مدّخر أو مستثمر لم يُذكر أعلاه."),
      help_liabilities: paras(
        "الديون الحالّة الآن أو خلال الاثني عشر شهرًا القادمة: الفواتير غير المدفوعة وأقساط القروض لسنة قادمة والضرائب المستحقة. لا تطرح الرهن العقاري طويل الأجل كله.",
      ),
    },
  },
};

/** The Arabic versions of the pay pages, the page of funds and the calculator: the English documents' settings, in Arabic words. */
export function arabicPayDocuments(english: DocSpec[]): DocSpec[] {
  return Object.entries(PAY_PAGES).map(([type, arabic]) => {
    const source = english.find((d) => d.type === type && (d.lang ?? "en-au") === "en-au");
    if (!source) throw new Error(`No English ${type} to translate`);
    const data = source.data as Record<string, unknown>;
    return {
      type,
      lang: AR,
      published: source.published,
      ...(source.updated ? { updated: source.updated } : {}),
      slugFrom: arabic.title,
      data: {
        ...data,
        title: title(arabic.title),
        // The English picture, described in Arabic.
        ...(data.hero_image ? { hero_image: arabicImage(data.hero_image as Data) } : {}),
        ...arabic.data,
        ...seo(),
      },
    };
  });
}
