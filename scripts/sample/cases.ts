/** `case` documents (/case/:uid): stories of people helped, each linked to its program. */
import { docLink, h2, scene, p, rt, seo, title, type DocSpec } from "./helpers.js";

interface CaseSpec {
  uid: string;
  title: string;
  summary: string;
  image: string;
  location: string;
  published: string;
  program: string;
  story: string[];
  outcome: string;
}

// Names and details are invented; real case stories are published only with consent and changed details.
const CASES: CaseSpec[] = [
  {
    uid: "rent-arrears-after-job-loss",
    title: "Keeping a family housed after a job loss",
    image: "feature-housing.jpg",
    summary: "Six weeks of rent arrears paid so a family of five could stay in their home.",
    location: "Western Sydney, NSW",
    published: "2026-03-18",
    program: "housing-and-rent",
    story: [
      "When the warehouse where Khalid worked closed, his family fell six weeks behind on rent within two months. The agent issued a notice to vacate.",
      "Our caseworker confirmed the family's income and debts, spoke to the agent, and paid the arrears directly the same week.",
    ],
    outcome:
      "Khalid started a new job in May. The family is still in their home and the children did not have to change schools.",
  },
  {
    uid: "bond-for-a-new-start",
    title: "A bond and a new start",
    image: "hero-apply.jpg",
    summary: "A mother and two children moved into a safe rental after leaving family violence.",
    location: "Melbourne, VIC",
    published: "2026-04-07",
    program: "housing-and-rent",
    story: [
      "Samira left a violent home with two children and the clothes they were wearing. A refuge found her a rental, but she had no money for the bond.",
      "We paid the bond to the Residential Tenancies Bond Authority and bought beds and a fridge for the new flat.",
    ],
    outcome:
      "Samira signed a twelve-month lease and has since enrolled in an aged-care certificate through our education program.",
  },
  {
    uid: "school-laptops-for-three-siblings",
    title: "Three laptops for three siblings",
    image: "feature-education.jpg",
    summary: "Laptops so three high-school students could do their homework at home instead of on one phone.",
    location: "Logan, QLD",
    published: "2026-05-02",
    program: "education",
    story: [
      "Three siblings in Years 8, 10 and 11 were sharing their mother's phone to submit assignments. Their teachers noticed work arriving late and unfinished.",
    ],
    outcome:
      "We provided three refurbished laptops and a year of home internet. Bright Path Tutoring now meets the eldest weekly before her final exams.",
  },
  {
    uid: "tafe-fees-for-a-nursing-assistant",
    title: "TAFE fees for a future nursing assistant",
    image: "feature-education.jpg",
    summary: "Course fees and a uniform so Halima could finish her Certificate III in Health Services.",
    location: "Adelaide, SA",
    published: "2026-06-11",
    program: "education",
    story: [
      "Halima, a widow in her forties, was halfway through her certificate when her late husband's debts left her unable to pay the second semester's fees.",
    ],
    outcome: "She graduated in September and now works part-time at a hospital near her home.",
  },
  {
    uid: "medical-bills-after-an-accident",
    title: "Medical bills after a car accident",
    image: "feature-emergency.jpg",
    summary: "An emergency grant covered specialist fees and groceries while Omar could not work.",
    location: "Brisbane, QLD",
    published: "2026-07-09",
    program: "emergency-relief",
    story: [
      "Omar, a self-employed courier, broke his leg in a car accident. With no sick leave and a specialist gap fee he could not pay, the family's savings ran out within a month.",
    ],
    outcome: "An emergency grant paid the specialist and two months of groceries. Omar is back at work.",
  },
  {
    uid: "groceries-and-bills-for-a-carer",
    title: "Support for a full-time carer",
    image: "feature-family.jpg",
    summary: "Six months of help with groceries and bills for a mother caring for her disabled son.",
    location: "Adelaide, SA",
    published: "2026-08-20",
    program: "family-wellbeing",
    story: [
      "Rukhsana cares full time for her adult son, who has a severe disability. The Carer Payment covered rent but left almost nothing for food and power.",
    ],
    outcome:
      "A family wellbeing grant paid bills for six months while our financial counsellor helped her apply for the support she was entitled to.",
  },
  {
    uid: "funeral-costs-for-a-widow",
    title: "A dignified funeral",
    image: "feature-emergency.jpg",
    summary: "Funeral and burial costs paid for a widow who had no savings.",
    location: "Perth, WA",
    published: "2026-09-25",
    program: "emergency-relief",
    story: [
      "When Abdullahi died suddenly, his wife Amina faced a funeral bill of more than $5,000 with no savings and three young children.",
    ],
    outcome: "Zakat paid the funeral and burial within two days, and Amina now receives family wellbeing support.",
  },
];

export function caseDocuments(): DocSpec[] {
  return CASES.map((c) => ({
    type: "case",
    uid: c.uid,
    tags: ["case-study"],
    published: c.published,
    slugFrom: c.title,
    data: {
      title: title(c.title),
      summary: c.summary,
      featured_image: scene(c.image),
      body: rt(
        c.story.map(p),
        h2("The outcome"),
        p(c.outcome),
        p("Cases like this are funded by your zakat. [Pay zakat](doc:zakat) or [read more cases](doc:cases_page)."),
      ),
      location: c.location,
      published: c.published,
      program: docLink("program", c.program),
      ...seo({ description: c.summary }),
    },
  }));
}
