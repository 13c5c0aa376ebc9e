/** `blog_article` documents (/blog/:uid). */
import { h2, h3, ol, p, rt, scene, seo, title, ul, type DocSpec, type Json } from "./helpers.js";

interface Article {
  uid: string;
  title: string;
  published: string;
  author: string;
  excerpt: string;
  image: string;
  category: "zakat" | "sadaqah" | "ramadan" | "community" | "news";
  body: Json[];
}

const ARTICLES: Article[] = [
  {
    uid: "what-is-nisab",
    title: "What is the nisab, and which one should I use?",
    published: "2026-01-28",
    author: "Dr Zainab Osman",
    category: "zakat",
    image: "hero-learn.jpg",
    excerpt: "The nisab is the minimum wealth that makes zakat due. Here is how the gold and silver standards differ.",
    body: rt(
      p(
        "Zakat is only due on wealth above a threshold called the **nisab**. The Prophet ﷺ set it in two measures: a weight of gold and a weight of silver. Because silver is far cheaper than gold, the silver nisab is much lower.",
      ),
      h2("Why we use silver by default"),
      p(
        "Using the silver nisab means more people pay zakat, and more people in need receive it. Many scholars recommend it for wealth held mostly as cash. If you follow the gold standard, you can switch in the [calculator](doc:calculate_page).",
      ),
      h2("Checking the nisab over the year"),
      ol(
        "Pick your zakat date: the day in the lunar year you first held wealth above the nisab.",
        "On that date each year, add up your zakatable wealth and subtract debts due now.",
        "If the total is still above the nisab, pay 2.5% of it.",
      ),
    ),
  },
  {
    uid: "zakat-on-superannuation",
    title: "Do I pay zakat on my super?",
    published: "2026-03-04",
    author: "Dr Zainab Osman",
    category: "zakat",
    image: "hero-zakat.jpg",
    excerpt:
      "Compulsory super you cannot touch is not zakatable. Voluntary contributions you can withdraw are a different question.",
    body: rt(
      p(
        "Superannuation is most Australians' largest asset after their home, so this is one of the questions we are asked most.",
      ),
      h2("Compulsory contributions"),
      p(
        "Compulsory superannuation (the Superannuation Guarantee your employer pays) is **not zakatable** while you cannot access it, because you do not have full ownership and control of it.",
      ),
      h2("When zakat becomes due"),
      ul(
        "Once you can access your super (for example after reaching preservation age and retiring), it is zakatable like other savings.",
        "Voluntary contributions you can withdraw should be counted.",
        "Money released early on compassionate grounds is zakatable if you still hold it on your zakat date.",
      ),
      p(
        "The [ATO's super pages](https://www.ato.gov.au/individuals-and-families/super-for-individuals-and-families) explain when super can be accessed.",
      ),
    ),
  },
  {
    uid: "preparing-for-ramadan-2027",
    title: "Preparing for Ramadan 1448",
    published: "2026-10-20",
    author: "Noor Bakr",
    category: "ramadan",
    image: "hero-ramadan.jpg",
    excerpt: "Ramadan is expected to begin around 8 February 2027. Five things to plan for your giving now.",
    body: rt(
      p(
        "Ramadan 1448 is expected to begin in Australia around **8 February 2027**, subject to the sighting of the moon. Planning now helps you give thoughtfully rather than in a rush on the 27th night.",
      ),
      ol(
        "Calculate your zakat before Ramadan begins.",
        "Set aside Zakat al-Fitr for everyone in your household.",
        "Decide how to spread your giving across the last ten nights.",
        "Check whether you owe fidyah for missed fasts.",
        "Tell your family what you are planning, so they can join in.",
      ),
      p("Our printable Ramadan calendars will be available in January."),
    ),
  },
  {
    uid: "zakat-al-fitr-explained",
    title: "Zakat al-Fitr: who, when and how much",
    published: "2026-02-24",
    author: "Sheikh Hamza Qureshi",
    category: "ramadan",
    image: "hero-ramadan.jpg",
    excerpt:
      "Zakat al-Fitr is due for every member of the household before the Eid prayer. This year it is $15 a person.",
    body: rt(
      p(
        "Zakat al-Fitr purifies the fast and makes sure everyone can celebrate Eid. It is due on behalf of every Muslim in the household, including children, from the person who supports them.",
      ),
      h3("How much"),
      p(
        "The traditional amount is a *sa'* of staple food. We have set it at **$15 per person**, the cost of that food in Australia today.",
      ),
      h3("When"),
      p("Pay before the Eid prayer. Paying a few days early lets us deliver it in time."),
    ),
  },
  {
    uid: "sadaqah-jariyah-ideas",
    title: "Five ideas for sadaqah jariyah close to home",
    published: "2026-05-15",
    author: "Mariam Siddiqui",
    category: "sadaqah",
    image: "hero-sadaqah.jpg",
    excerpt:
      "Ongoing charity does not have to mean a well overseas. Five ways to leave lasting good in your own community.",
    body: rt(
      p("Sadaqah jariyah is charity whose benefit continues after you give it. Here are five ideas close to home."),
      ol(
        "Fund a student's TAFE course: the skill lasts a working life.",
        "Pay for a set of tutoring sessions.",
        "Donate books in community languages to your local library.",
        "Sponsor a bond so a family can start a tenancy.",
        "Teach someone to read the Qur'an.",
      ),
    ),
  },
  {
    uid: "volunteers-of-the-year",
    title: "Thank you to our volunteers",
    published: "2026-08-05",
    author: "Ibrahim Ali",
    category: "community",
    image: "hero-about.jpg",
    excerpt: "Ninety volunteers gave more than 4,000 hours this year. Meet a few of them.",
    body: rt(
      p(
        "From packing Eid hampers to answering donor calls in Ramadan, our volunteers gave more than **4,000 hours** this year.",
      ),
      p(
        "Special thanks to the team at the [Westside Food Collective](doc:partner/westside-food-collective), who packed 1,200 Ramadan hampers in three weekends.",
      ),
      p("Want to help? [Get in touch](doc:contact_page)."),
    ),
  },
  {
    uid: "annual-report-2025-26",
    title: "Our year in numbers: 2025–26",
    published: "2026-10-02",
    author: "Aisha Rahman",
    category: "news",
    image: "hero-cases.jpg",
    excerpt: "How much zakat we received, how we paid it out, and what we learned in 2025–26.",
    body: rt(
      p(
        "Thank you. In the 2025–26 financial year you entrusted us with more zakat than ever before, and we paid out every dollar received before 30 June.",
      ),
      ul("1,940 applications assessed", "1,215 households supported", "Median decision time: 6 working days"),
      p(
        "Our full financial statements are published on the [ACNC Charity Register](https://www.acnc.gov.au/charity/charities).",
      ),
    ),
  },
  {
    uid: "zakat-on-shares-and-etfs",
    title: "Zakat on shares and ETFs",
    published: "2026-06-30",
    author: "Dr Zainab Osman",
    category: "zakat",
    image: "hero-programs.jpg",
    excerpt:
      "Trading shares and long-term holdings are treated differently. Here is the simple method our calculator uses.",
    body: rt(
      h2("Shares you trade"),
      p("Shares bought to sell for a profit are trade goods: pay 2.5% of their full market value on your zakat date."),
      h2("Shares you hold for the long term"),
      p(
        "For long-term holdings, zakat is due on your share of the company's zakatable assets. Because company accounts are hard to read, our calculator counts **30% of the market value** as an approximation, then applies 2.5%.",
      ),
      p("Try it in the [zakat calculator](doc:calculate_page)."),
    ),
  },
];

export function blogDocuments(): DocSpec[] {
  return ARTICLES.map((a) => ({
    type: "blog_article",
    uid: a.uid,
    tags: [a.category],
    published: a.published,
    slugFrom: a.title,
    data: {
      title: title(a.title),
      published: a.published,
      author: a.author,
      excerpt: a.excerpt,
      featured_image: scene(a.image),
      body: a.body,
      category: a.category,
      ...seo({ description: a.excerpt }),
    },
  }));
}
