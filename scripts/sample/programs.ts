/** `program` and `partner` documents (/program/:uid, /partner/:uid). */
import {
  callToAction,
  docLink,
  scene,
  faqList,
  h2,
  image,
  imageBlock,
  imageWithText,
  p,
  paras,
  rt,
  seo,
  stats,
  textBlock,
  title,
  ul,
  web,
  type DocSpec,
} from "./helpers.js";

export function programDocuments(): DocSpec[] {
  return [
    {
      type: "program",
      uid: "emergency-relief",
      published: "2026-02-10",
      updated: "2026-09-14",
      slugFrom: "Emergency relief",
      data: {
        title: title("Emergency relief"),
        summary: "Fast grants when a crisis hits: illness, accident, bereavement or sudden loss of income.",
        featured_image: scene("feature-emergency.jpg"),
        body: rt(
          p(
            "When something goes wrong suddenly, the first weeks matter most. Emergency relief pays for the essentials that cannot wait: groceries, medicine, a funeral, an urgent bill.",
          ),
          h2("What we can pay for"),
          ul(
            "Food and household essentials",
            "Medical costs not covered by Medicare",
            "Funeral costs for families without means",
            "Urgent utility bills to prevent disconnection",
          ),
          p(
            "Most emergency grants are decided within **two working days**. [Apply for help](doc:apply_page) or read [how we assess applications](doc:faq_page).",
          ),
        ),
        slices: [
          stats("Emergency relief in 2025–26", [
            ["412", "emergency grants"],
            ["2 days", "median time to decision"],
            ["$1,180", "average grant"],
          ]),
          callToAction(
            "Fund emergency relief",
            paras("Your zakat can reach someone this week."),
            "Pay zakat",
            docLink("zakat"),
          ),
        ],
        ...seo({
          description:
            "Emergency zakat grants for Muslims in Australia facing illness, bereavement or sudden loss of income.",
        }),
      },
    },
    {
      type: "program",
      uid: "housing-and-rent",
      published: "2026-02-10",
      updated: "2026-08-02",
      slugFrom: "Housing and rent",
      data: {
        title: title("Housing and rent"),
        summary: "Rent arrears, bonds and moving costs, so families keep a safe roof over their heads.",
        featured_image: scene("feature-housing.jpg"),
        body: rt(
          p(
            "Rents in every Australian capital have risen faster than incomes. A few weeks of arrears can become an eviction notice. We pay arrears directly to the landlord or agent, and bonds for people starting again.",
          ),
          imageBlock("feature-housing.jpg", null),
          p(
            "We work with [Safe Harbour Housing](doc:partner/safe-harbour-housing) to find longer-term options for families who cannot stay where they are.",
          ),
        ),
        slices: [
          imageWithText(
            scene("hero-apply.jpg"),
            "Behind on rent?",
            paras("Tell us early. The sooner we know, the more options there are."),
            "right",
          ),
          faqList("Housing questions", [
            [
              "Do you pay the landlord directly?",
              paras("Yes. We pay arrears and bonds to the agent, landlord or the state bond authority, never in cash."),
            ],
            [
              "Can you help with a mortgage?",
              paras(
                "Usually not: zakat is for people in need, and a home loan on a property you own is assessed case by case.",
              ),
            ],
          ]),
        ],
        ...seo(),
      },
    },
    {
      type: "program",
      uid: "education",
      published: "2026-02-10",
      updated: "2026-07-21",
      slugFrom: "Education",
      data: {
        title: title("Education"),
        summary: "Fees, tools and devices for study that leads to work.",
        featured_image: scene("feature-education.jpg"),
        body: rt(
          p(
            "Education is the surest way out of hardship. We pay for TAFE and short-course fees, laptops for school students, textbooks and the tools an apprentice needs on day one.",
          ),
          p("Tutoring is delivered with our partner [Bright Path Tutoring](doc:partner/bright-path-tutoring)."),
        ),
        slices: [
          textBlock(
            "Who can apply",
            rt(
              ul(
                "Students and parents of school students in financial hardship",
                "Adults retraining for work",
                "Refugees and new arrivals having qualifications recognised",
              ),
            ),
          ),
          callToAction(
            "Studying and struggling?",
            paras("Applications are open all year."),
            "Apply now",
            docLink("apply_page"),
          ),
        ],
        ...seo(),
      },
    },
    {
      type: "program",
      uid: "family-wellbeing",
      published: "2026-02-11",
      updated: "2026-09-30",
      slugFrom: "Family wellbeing",
      data: {
        title: title("Family wellbeing"),
        summary: "Ongoing support for carers, single parents and families under long-term pressure.",
        featured_image: scene("feature-family.jpg"),
        body: rt(
          p(
            "Some hardship does not end in a month. Family wellbeing grants give carers and single parents regular help with groceries and bills for up to six months, alongside referrals to counselling, legal help and financial counselling.",
          ),
          p(
            "Legal referrals go to the [Crescent Legal Clinic](doc:partner/crescent-legal-clinic); food hampers are packed by the [Westside Food Collective](doc:partner/westside-food-collective).",
          ),
        ),
        slices: [
          stats("Family wellbeing", [
            ["168", "families supported"],
            ["6 months", "longest support period"],
          ]),
        ],
        ...seo(),
      },
    },
  ];
}

interface PartnerSpec {
  uid: string;
  name: string;
  logo: string;
  url: string;
  summary: string;
  body: string[];
}

const PARTNERS: PartnerSpec[] = [
  {
    uid: "westside-food-collective",
    name: "Westside Food Collective",
    logo: "partner-westside-food-collective.png",
    url: "https://westside-food.example",
    summary: "A volunteer food relief network packing halal hampers in Western Sydney.",
    body: [
      "Westside Food Collective packs around 300 halal food hampers a week. We fund hampers for families on our books and refer families to their weekly pantry.",
      "Partner since 2022.",
    ],
  },
  {
    uid: "safe-harbour-housing",
    name: "Safe Harbour Housing",
    logo: "partner-safe-harbour-housing.png",
    url: "https://safe-harbour.example",
    summary: "A community housing provider helping families find secure tenancies.",
    body: [
      "Safe Harbour Housing manages affordable rentals in Sydney and Melbourne. Our caseworkers refer families who need a longer-term home; we pay bonds and moving costs.",
      "Partner since 2023.",
    ],
  },
  {
    uid: "bright-path-tutoring",
    name: "Bright Path Tutoring",
    logo: "partner-bright-path-tutoring.png",
    url: "https://bright-path.example",
    summary: "Volunteer tutors for primary and high-school students.",
    body: [
      "Bright Path's qualified volunteer tutors meet students weekly, online or at local libraries. We cover materials and devices for students we refer.",
    ],
  },
  {
    uid: "crescent-legal-clinic",
    name: "Crescent Legal Clinic",
    logo: "partner-crescent-legal-clinic.png",
    url: "https://crescent-legal.example",
    summary: "Free legal advice on tenancy, debt, family and immigration matters.",
    body: [
      "Crescent Legal Clinic's lawyers give free advice to people we support, often preventing an eviction or a debt spiral before a grant is needed.",
    ],
  },
];

export function partnerDocuments(): DocSpec[] {
  return PARTNERS.map((partner, index) => ({
    type: "partner",
    uid: partner.uid,
    published: `2026-03-0${index + 1}`,
    slugFrom: partner.name,
    data: {
      title: title(partner.name),
      logo: image(partner.logo, `${partner.name} logo`),
      website: web(partner.url, true),
      summary: partner.summary,
      body: rt(paras(...partner.body), p("See all our [programs and partners](doc:programs_page).")),
      ...seo(),
    },
  }));
}
