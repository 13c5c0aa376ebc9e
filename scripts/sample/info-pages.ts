/** Service pages: account, calculate, contact, FAQ, guides, pay, privacy (English). */
import { docLink, h2, h3, image, ol, p, paras, rt, scene, seo, title, ul, type DocSpec, type Json } from "./helpers.js";

const FAQS: [string, string, Json[]][] = [
  [
    "Paying zakat",
    "Does 100% of my zakat go to people in need?",
    paras("Yes. Our running costs are paid from sadaqah and grants, never from zakat."),
  ],
  [
    "Paying zakat",
    "Is my zakat tax-deductible?",
    paras("No. Zakat is an obligation paid to eligible people and is not tax-deductible. You still receive a receipt."),
  ],
  [
    "Paying zakat",
    "Can I pay zakat in instalments?",
    paras("Yes. Many donors pay monthly in advance of their zakat date. Make sure the total is paid by that date."),
  ],
  [
    "Paying zakat",
    "Can I pay zakat on behalf of someone else?",
    paras("Yes, with their permission. Enter their name in the comments so the receipt is correct."),
  ],
  [
    "Calculating zakat",
    "Which nisab does the calculator use?",
    rt(
      p(
        "Silver by default, because it lets more people benefit. You can switch to gold. See [What is the nisab?](doc:blog_article/what-is-nisab)",
      ),
    ),
  ],
  [
    "Calculating zakat",
    "Do I pay zakat on my house?",
    paras(
      "Not on the home you live in. An investment property is not zakatable itself, but the rent you have saved is.",
    ),
  ],
  [
    "Calculating zakat",
    "Is superannuation zakatable?",
    rt(
      p(
        "Compulsory superannuation is not zakatable while you cannot access it. Read [Do I pay zakat on my super?](doc:blog_article/zakat-on-superannuation)",
      ),
    ),
  ],
  [
    "Calculating zakat",
    "What about cryptocurrency?",
    paras("Cryptocurrency held as an investment or for trading is zakatable at its market value on your zakat date."),
  ],
  [
    "Receiving zakat",
    "Who can receive zakat?",
    paras(
      "The eight categories named in the Qur'an (9:60). In practice most people we help are poor or in debt they cannot pay.",
    ),
  ],
  [
    "Receiving zakat",
    "How long does a decision take?",
    paras("Most decisions are made within ten working days; emergency grants within two."),
  ],
  [
    "Receiving zakat",
    "Do you only help people in Sydney?",
    paras("No. We help people in every state and territory, by phone and online."),
  ],
  [
    "About us",
    "Are you a registered charity?",
    paras("Yes, we are registered with the Australian Charities and Not-for-profits Commission (ACNC)."),
  ],
];

const HELP: Record<string, Json[]> = {
  help_cash: paras(
    "Cash in hand and in bank accounts, including savings, term deposits and money owed to you that you expect to be repaid. Do not include interest: give that away separately as tainted wealth.",
  ),
  help_gold_silver: paras(
    "Gold and silver you own, including jewellery, at today's value for the weight of pure metal. Scholars differ on jewellery worn regularly; the calculator counts it.",
  ),
  help_shares: rt(
    p(
      "Shares you trade: the full market value. Shares you hold for the long term: we count 30% of the market value as an approximation of the company's zakatable assets. See [Zakat on shares and ETFs](doc:blog_article/zakat-on-shares-and-etfs).",
    ),
  ),
  help_receivables: paras(
    "Money others owe you and will repay, such as a loan to a friend. Leave out debts you do not expect to recover.",
  ),
  help_business: paras(
    "Stock held for sale, business cash and money your customers owe you. Equipment, premises and vehicles used to run the business are not zakatable.",
  ),
  help_property: paras(
    "Property bought to sell (for example a development) at its market value. Your home and rental properties are not included, but saved rent is cash.",
  ),
  help_crypto: paras("Cryptocurrency at its market value in Australian dollars on your zakat date."),
  help_super: rt(
    p(
      "Compulsory superannuation is **not zakatable** while you cannot access it. Include super you can access now, and voluntary contributions you could withdraw. See [Do I pay zakat on my super?](doc:blog_article/zakat-on-superannuation)",
    ),
  ),
  help_other: paras("Any other wealth held for saving or investment that is not covered above."),
  help_liabilities: paras(
    "Debts due now or within the next twelve months: unpaid bills, the next year of loan repayments, tax owed. Do not subtract the whole of a long-term mortgage.",
  ),
};

export function infoPageDocuments(): DocSpec[] {
  return [
    {
      type: "account_page",
      published: "2026-02-01",
      slugFrom: "My account",
      data: {
        title: title("My account"),
        body: rt(
          p(
            "Sign in to see the gifts you made while signed in, print a receipt for each and a yearly tax summary, pause, change or cancel a regular gift, and look after your sign-in: your password, your e-mail address and phone number, and the devices you are signed in on. For help with a receipt or a regular gift, e-mail [info@nzf.org.au](mailto:info@nzf.org.au) or call 1300 975 707.",
          ),
        ),
        signed_out_text: rt(
          p(
            "Sign in with your e-mail address and password. No account yet? You can create one here with your e-mail address.",
          ),
        ),
        unavailable_text: rt(
          p(
            "Sign-in is unavailable at the moment; please try again later. You can still calculate and give zakat without an account, and we can e-mail you a copy of a receipt: write to info@nzf.org.au.",
          ),
        ),
        ...seo(),
      },
    },
    {
      type: "calculate_page",
      published: "2026-01-20",
      updated: "2026-11-01",
      slugFrom: "Zakat calculator",
      data: {
        title: title("Zakat calculator"),
        intro: rt(
          p(
            "Work out the zakat due on your wealth in a few minutes. Enter what you own and owe on your zakat date; the calculator compares it with the nisab and shows 2.5% of what is zakatable.",
          ),
        ),
        how_to: rt(
          p("The calculator needs JavaScript. Without it, you can calculate by hand:"),
          ol(
            "Add up everything you own that is zakatable: cash, gold and silver, shares, business stock, cryptocurrency and money owed to you.",
            "Subtract debts you must pay now or within twelve months.",
            "If the result is above the nisab (the value of silver or gold shown below), multiply it by 2.5%.",
          ),
          h3("Example"),
          p(
            "Savings of $12,000 and shares traded worth $3,000, less a $1,000 bill due: $14,000 is above the silver nisab, so zakat is $14,000 × 2.5% = $350.",
          ),
          p("Then [pay your zakat](doc:zakat)."),
        ),
        nisab_basis: "silver",
        silver_price_per_gram: 1.55,
        gold_price_per_gram: 165,
        prices_as_at: "2026-11-01",
        long_term_share_proxy: 30,
        lunar_rate_percent: 2.5,
        solar_rate_percent: 2.577,
        ...HELP,
        ...seo({
          title: "Zakat calculator | National Zakat Foundation",
          description:
            "Calculate your zakat on cash, gold, shares, super, crypto and business assets, with guidance from our Shariah panel.",
        }),
      },
    },
    {
      type: "contact_page",
      published: "2026-01-20",
      slugFrom: "Contact us",
      data: {
        title: title("Contact us"),
        body: rt(
          p(
            "Questions about your zakat, a receipt or an application? Call or e-mail our donor care team. If you need help urgently, say so and we will call you back the same day.",
          ),
          p("For media enquiries, e-mail [info@nzf.org.au](mailto:info@nzf.org.au) and mark your message *Media*."),
        ),
        hours: rt(
          p("Monday to Friday, 9 am to 5 pm (Sydney time)"),
          p("During Ramadan: also Saturdays, 10 am to 2 pm"),
        ),
        ...seo(),
      },
    },
    {
      type: "faq_page",
      published: "2026-01-22",
      updated: "2026-09-10",
      slugFrom: "Frequently asked questions",
      data: {
        title: title("Frequently asked questions"),
        intro: rt(
          p(
            "Quick answers about paying, calculating and receiving zakat. Still stuck? [Contact us](doc:contact_page).",
          ),
        ),
        faqs: FAQS.map(([category, question, answer]) => ({ question, answer, category })),
        ...seo(),
      },
    },
    {
      type: "guides_page",
      published: "2026-01-22",
      slugFrom: "Guides",
      data: {
        title: title("Zakat guides"),
        intro: rt(p("Step-by-step guides for the situations donors ask us about most.")),
        guides: [
          {
            guide_title: "What is the nisab?",
            guide_summary: "Gold or silver, and why it matters.",
            guide_link: docLink("blog_article", "what-is-nisab"),
            guide_image: scene("hero-learn.jpg"),
          },
          {
            guide_title: "Zakat on super",
            guide_summary: "When superannuation is and is not zakatable.",
            guide_link: docLink("blog_article", "zakat-on-superannuation"),
            guide_image: scene("hero-zakat.jpg"),
          },
          {
            guide_title: "Zakat on shares and ETFs",
            guide_summary: "Trading versus long-term holdings.",
            guide_link: docLink("blog_article", "zakat-on-shares-and-etfs"),
            guide_image: scene("hero-programs.jpg"),
          },
          {
            guide_title: "Zakat al-Fitr",
            guide_summary: "Who pays, when, and how much.",
            guide_link: docLink("blog_article", "zakat-al-fitr-explained"),
            guide_image: scene("hero-ramadan.jpg"),
          },
          {
            guide_title: "Zakat explained",
            guide_summary: "The basics in five minutes.",
            guide_link: docLink("landing_page", "zakat-explained"),
            guide_image: image("hero-home.jpg", null),
          },
        ],
        ...seo(),
      },
    },
    {
      type: "pay_page",
      published: "2026-01-20",
      slugFrom: "Give",
      data: {
        title: title("Ways to give"),
        intro: rt(
          p(
            "Choose a fund. Zakat is paid only to eligible people; sadaqah also funds our work. Every payment is processed securely and receipted by e-mail.",
          ),
        ),
        ...seo(),
      },
    },
    {
      type: "privacy_policy_page",
      published: "2026-01-10",
      updated: "2026-07-01",
      slugFrom: "Privacy policy",
      data: {
        title: title("Privacy policy"),
        last_updated: "2026-07-01",
        body: rt(
          p(
            "National Zakat Foundation respects your privacy and handles personal information in line with the Australian Privacy Principles in the *Privacy Act 1988* (Cth).",
          ),
          h2("What we collect"),
          ul(
            "Donors: name, contact details, gift amounts and receipts.",
            "Applicants: the information needed to assess eligibility, including income, household and documents you provide.",
            "Website visitors: anonymous usage statistics through our tag manager.",
          ),
          h2("How we use it"),
          p(
            "We use donor information to process gifts and send receipts, and applicant information only to assess and pay zakat. We never sell personal information.",
          ),
          h2("Payments"),
          p("Card payments are processed by our payment provider; we do not store full card numbers."),
          h2("Access and complaints"),
          p(
            "You can ask to see or correct the information we hold about you. If you are unhappy with how we handled it, [contact us](doc:contact_page); you can also complain to the [Office of the Australian Information Commissioner](https://www.oaic.gov.au/).",
          ),
        ),
        ...seo(),
      },
    },
  ];
}
