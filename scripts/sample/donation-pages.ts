/** The nine donation pages (/pay/<fund>): presets in AUD, limits, and the text around the form. */
import { scene, h2, image, p, paras, rt, seo, title, ul, type Data, type DocSpec, type Json } from "./helpers.js";

interface Fund {
  type: string;
  title: string;
  summary: string;
  intro: Json[];
  body: Json[];
  hero: Data;
  presets: [number, string][];
  min: number;
  defaultAmount: number;
  updated: string;
  /** Fields only some donation types have (see docs/content-model.md). */
  extra?: Data;
}

const frequencies = (...list: string[]) => list.map((frequency) => ({ frequency }));

const MAX = 100000;

/** Also used by the Arabic version of the zakat page, which keeps the same amounts. */
export const ZAKAT_PRESETS: [number, string][] = [
  [100, "$100"],
  [250, "$250"],
  [500, "$500"],
  [1000, "$1,000"],
];

// A function, not a constant: images can only be built once generate.ts has read their sizes.
function funds(): Fund[] {
  return [
    {
      type: "zakat",
      title: "Pay your zakat",
      summary: "Your zakat, paid to Muslims in need in Australia, in full.",
      intro: paras(
        "Zakat is the third pillar of Islam: 2.5% of the wealth you have held above the nisab for a lunar year. Pay it here and we pass it to eligible people in Australia.",
      ),
      body: rt(
        h2("Where your zakat goes"),
        p(
          "Every dollar of zakat is paid to people who are eligible under one of the eight categories in the Qur'an (9:60). Our running costs are funded separately, by [sadaqah](doc:sadaqah) and grants, so your zakat is never used to pay our bills.",
        ),
        ul(
          "Rent, bond and utility arrears for families at risk of losing their home",
          "Emergency grants after illness, accidents and bereavement",
          "Study costs that lead to work: TAFE fees, tools, textbooks",
        ),
        h2("Not sure how much you owe?"),
        p(
          "Use the [zakat calculator](doc:calculate_page). It covers cash, gold and silver, shares, business assets, cryptocurrency and debts, and explains each step.",
        ),
        p("Zakat payments are not tax-deductible. You will receive a receipt by e-mail for your records."),
      ),
      hero: scene("hero-zakat.jpg"),
      presets: ZAKAT_PRESETS,
      min: 10,
      defaultAmount: 250,
      updated: "2026-10-30",
    },
    {
      type: "fitr",
      title: "Zakat al-Fitr",
      summary: "$15 per person, paid before the Eid prayer.",
      intro: paras(
        "Zakat al-Fitr is due from every Muslim who has food beyond their needs on the day of Eid al-Fitr, for themselves and each person they support. This year it is $15 per person.",
      ),
      body: rt(
        h2("When to pay"),
        p(
          "Pay any time in Ramadan, and at the latest before the Eid prayer. We distribute it as food vouchers to families in Australia before Eid, so they can celebrate too.",
        ),
        p("Count everyone in your household, including children and anyone you support."),
      ),
      hero: scene("hero-ramadan.jpg"),
      presets: [
        [15, "1 person"],
        [30, "2 people"],
        [60, "4 people"],
        [90, "6 people"],
      ],
      min: 10,
      defaultAmount: 60,
      updated: "2026-03-01",
      extra: { unit_amount: 15, unit_label: "person" },
    },
    {
      type: "fidyah",
      title: "Fidyah",
      summary: "$15 for each fast you cannot make up.",
      intro: paras(
        "If illness or old age means you cannot fast and will not be able to make the fasts up later, you pay fidyah: feeding one person in need for each day missed. We set it at $15 a day.",
      ),
      body: rt(
        h2("Fidyah or kaffarah?"),
        p(
          "Fidyah is for fasts you *cannot* make up. A fast broken deliberately without a valid reason needs kaffarah, which is different; ask [our donor care team](doc:contact_page) if you are unsure.",
        ),
      ),
      hero: image("hero-ramadan.jpg", null),
      presets: [
        [15, "1 day"],
        [150, "10 days"],
        [300, "20 days"],
        [450, "30 days"],
      ],
      min: 10,
      defaultAmount: 450,
      updated: "2026-03-01",
      extra: { unit_amount: 15, unit_label: "day" },
    },
    {
      type: "sadaqah",
      title: "Give sadaqah",
      summary: "Voluntary charity that funds our work and helps those zakat cannot reach.",
      intro: paras(
        "Sadaqah is any charity given freely. It pays for the caseworkers who assess zakat applications, and it helps people who are in need but not eligible for zakat.",
      ),
      body: rt(
        p("Your receipt shows whether your gift is tax-deductible."),
        p("Prefer to give every week? Try [Jumuah giving](doc:jumuah_giving)."),
      ),
      hero: scene("hero-sadaqah.jpg"),
      presets: [
        [25, "$25"],
        [50, "$50"],
        [100, "$100"],
        [250, "$250"],
      ],
      min: 5,
      defaultAmount: 50,
      updated: "2026-06-10",
      extra: { frequencies: frequencies("once", "monthly") },
    },
    {
      type: "qurban",
      title: "Qurban",
      summary: "Choose an animal; the meat goes to families who need it.",
      intro: paras(
        "Qurban (udhiyah) is the sacrifice made on Eid al-Adha and the three days after it. Choose where your qurban is performed; we share the meat with families we support.",
      ),
      body: rt(
        h2("How it works"),
        ul(
          "Order by the day before Eid al-Adha.",
          "The sacrifice is made after the Eid prayer by licensed partners.",
          "We send you a confirmation when your qurban has been performed.",
        ),
      ),
      hero: scene("hero-qurban.jpg"),
      presets: [
        [110, "One-seventh share of a cow (overseas)"],
        [150, "Goat (overseas)"],
        [450, "Lamb (in Australia)"],
        [900, "Two lambs (in Australia)"],
      ],
      min: 10,
      defaultAmount: 450,
      updated: "2026-05-01",
      extra: {
        unit_label: "animal",
        // The lamb matches the default amount above; the form starts on it.
        default_option: "lamb-australia",
        animal_options: [
          { code: "cow-share-overseas", option_label: "One-seventh share of a cow (overseas)", option_price: 110 },
          { code: "goat-overseas", option_label: "Goat (overseas)", option_price: 150 },
          { code: "lamb-australia", option_label: "Lamb (in Australia)", option_price: 450 },
        ],
      },
    },
    {
      type: "ramadan",
      title: "Ramadan giving",
      summary: "Multiply your giving in the month of the Qur'an.",
      intro: paras(
        "Ramadan is when many of us give the most. Your Ramadan gift funds food, rent relief and Eid gifts for families we support.",
      ),
      body: rt(
        p(
          "Want to spread your giving across the last ten nights? Read our [Ramadan appeal](doc:landing_page/ramadan-appeal).",
        ),
      ),
      hero: image("hero-ramadan.jpg", null),
      presets: [
        [30, "$30"],
        [100, "$100"],
        [300, "$300"],
        [500, "$500"],
      ],
      min: 10,
      defaultAmount: 100,
      updated: "2026-10-15",
      // The first night of Ramadan 1448 as expected; editors confirm it after the moon sighting.
      extra: {
        frequencies: frequencies("once", "ramadan-nightly", "ramadan-last-ten"),
        season_start: "2027-02-08",
        season_length: 30,
      },
    },
    {
      type: "dhul_hijjah",
      title: "Dhul Hijjah giving",
      summary: "Give in the best ten days of the year.",
      intro: paras(
        "The first ten days of Dhul Hijjah are among the most blessed days of the year. Give once, or set a gift for each of the ten days.",
      ),
      body: rt(p("Looking for your udhiyah? See [Qurban](doc:qurban).")),
      hero: image("hero-qurban.jpg", null),
      presets: [
        [50, "$50"],
        [100, "$100"],
        [250, "$250"],
        [500, "$500"],
      ],
      min: 10,
      defaultAmount: 100,
      updated: "2026-05-01",
      extra: {
        frequencies: frequencies("once", "dhul-hijjah-ten-days"),
        season_start: "2027-05-07",
        season_length: 10,
      },
    },
    {
      type: "tainted_wealth",
      title: "Dispose of tainted wealth",
      summary: "Purify bank interest and other impermissible income.",
      intro: paras(
        "Interest from a bank account and other income that is not permissible should be given away without expecting reward. We use it only for public-benefit costs, never for zakat.",
      ),
      body: rt(
        h2("What counts as tainted wealth"),
        ul(
          "Interest credited to savings or transaction accounts",
          "Dividends from impermissible business activity, in proportion",
          "Late-payment penalties or other income you should not keep",
        ),
        p("Give the whole amount; it is not counted as your zakat and is not tax-deductible."),
      ),
      hero: scene("hero-purify.jpg"),
      presets: [
        [50, "$50"],
        [100, "$100"],
        [500, "$500"],
        [1000, "$1,000"],
      ],
      min: 10,
      defaultAmount: 100,
      updated: "2026-04-20",
      extra: {
        purification_note: paras(
          "This is purification, not zakat or sadaqah: give it away without expecting reward. It is never counted as your zakat and is not tax-deductible.",
        ),
      },
    },
    {
      type: "jumuah_giving",
      title: "Jumuah giving",
      summary: "A small gift every Friday.",
      intro: paras(
        "Give a little every Friday. Small regular gifts add up to steady support for the families on our books.",
      ),
      body: rt(
        p(
          "Choose an amount; we will remind you each Friday. You can stop at any time from [your account](doc:account_page).",
        ),
      ),
      hero: image("hero-sadaqah.jpg", null),
      presets: [
        [5, "$5"],
        [10, "$10"],
        [20, "$20"],
        [50, "$50"],
      ],
      min: 5,
      defaultAmount: 10,
      updated: "2026-07-03",
      extra: { frequencies: frequencies("once", "weekly-friday") },
    },
  ];
}

export function donationData(fund: Fund): Data {
  return {
    title: title(fund.title),
    intro: fund.intro,
    body: fund.body,
    hero_image: fund.hero,
    fund_summary: fund.summary,
    presets: fund.presets.map(([amount, label]) => ({ amount, label })),
    minimum_amount: fund.min,
    maximum_amount: MAX,
    default_amount: fund.defaultAmount,
    ...fund.extra,
    ...seo(
      fund.type === "zakat"
        ? {
            title: "Pay your zakat online | National Zakat Foundation",
            description: "Pay zakat securely online. 100% of your zakat goes to eligible Muslims in Australia.",
          }
        : {},
    ),
  };
}

export function donationDocuments(): DocSpec[] {
  return funds().map((fund) => ({
    type: fund.type,
    published: "2026-01-20",
    updated: fund.updated,
    slugFrom: fund.title,
    data: donationData(fund),
  }));
}
