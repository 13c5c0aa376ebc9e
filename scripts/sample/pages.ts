/** The main single pages: home, about, apply, learn, cases, programs (English). */
import {
  callToAction,
  cardGrid,
  docLink,
  faqList,
  h2,
  image,
  imageWithText,
  p,
  paras,
  quote,
  rt,
  scene,
  seo,
  stats,
  textBlock,
  title,
  ul,
  type DocSpec,
} from "./helpers.js";

export function homeData() {
  return {
    title: title("Your zakat, for Australians in need"),
    hero_text: rt(
      p(
        "National Zakat Foundation collects zakat from Muslims in Australia and pays it to Muslims in need **here**, within weeks, with every dollar of zakat going to people eligible to receive it.",
      ),
    ),
    hero_image: scene("hero-home.jpg"),
    primary_cta_label: "Pay zakat",
    primary_cta_link: docLink("zakat"),
    secondary_cta_label: "Calculate your zakat",
    secondary_cta_link: docLink("calculate_page"),
    featured_cases: [
      { case: docLink("case", "rent-arrears-after-job-loss") },
      { case: docLink("case", "bond-for-a-new-start") },
      { case: docLink("case", "medical-bills-after-an-accident") },
    ],
    slices: [
      stats("Last financial year", [
        ["$4.2m", "zakat paid out"],
        ["1,215", "households supported"],
        ["6 days", "median time to a decision"],
        ["100%", "of zakat to eligible people"],
      ]),
      cardGrid("Where your zakat goes", [
        {
          title: "Emergency relief",
          text: paras("Fast grants after illness, accidents and bereavement."),
          image: scene("feature-emergency.jpg"),
          link: docLink("program", "emergency-relief"),
        },
        {
          title: "Housing and rent",
          text: paras("Rent arrears and bonds that keep families housed."),
          image: scene("feature-housing.jpg"),
          link: docLink("program", "housing-and-rent"),
        },
        {
          title: "Education",
          text: paras("Fees, devices and tools for study that leads to work."),
          image: scene("feature-education.jpg"),
          link: docLink("program", "education"),
        },
        {
          title: "Family wellbeing",
          text: paras("Ongoing help for carers and single parents."),
          image: scene("feature-family.jpg"),
          link: docLink("program", "family-wellbeing"),
        },
      ]),
      imageWithText(
        scene("hero-apply.jpg"),
        "Need help?",
        paras(
          "If you are a Muslim in Australia facing hardship, you can apply for zakat. Applications are confidential and assessed by a caseworker, not an algorithm.",
        ),
        "left",
      ),
      quote(
        "The agent had already given us the notice. Two days after I called, the arrears were paid. My children did not have to change schools.",
        "A father in Western Sydney",
      ),
      callToAction(
        "Ready to pay your zakat?",
        paras("It takes two minutes, and you will get a receipt by e-mail."),
        "Pay zakat now",
        docLink("zakat"),
      ),
    ],
    ...seo({
      title: "National Zakat Foundation | Pay zakat in Australia",
      description: "Calculate and pay your zakat online. Your zakat supports Muslims in need in Australia.",
      image: image("social-default.jpg", "National Zakat Foundation"),
    }),
  };
}

export function mainPageDocuments(): DocSpec[] {
  return [
    {
      type: "home_page",
      published: "2026-01-15",
      updated: "2026-10-31",
      slugFrom: "Your zakat, for Australians in need",
      data: homeData(),
    },
    {
      type: "about_page",
      published: "2026-01-15",
      updated: "2026-09-01",
      slugFrom: "About us",
      data: {
        title: title("About us"),
        body: rt(
          p(
            "National Zakat Foundation was founded by a group of volunteers who saw Muslims in their own suburbs struggling while zakat flowed overseas. We believe the people of a place have the first right to its zakat.",
          ),
          h2("How we work"),
          ul(
            "Every application is assessed by a trained caseworker.",
            "Eligibility follows a policy approved by our Shariah panel.",
            "Zakat and sadaqah are kept in separate accounts and audited every year.",
          ),
          p("We are a registered charity with the Australian Charities and Not-for-profits Commission."),
        ),
        hero_image: scene("hero-about.jpg"),
        members_heading: "Our people",
        slices: [
          quote(
            "Zakat is not a favour from the rich to the poor; it is the right of the poor over the wealth of the rich.",
            "Sheikh Hamza Qureshi, Shariah Advisor",
          ),
          textBlock(
            "Governance",
            rt(
              p(
                "Our board meets every month. Directors are volunteers and receive no payment. Read our [privacy policy](doc:privacy_policy_page).",
              ),
            ),
          ),
        ],
        ...seo({ description: "Who we are: the board, staff and Shariah panel of National Zakat Foundation." }),
      },
    },
    {
      type: "apply_page",
      published: "2026-01-16",
      updated: "2026-08-14",
      slugFrom: "Apply for zakat",
      data: {
        title: title("Apply for zakat"),
        body: rt(
          p(
            "If you are a Muslim living in Australia and you are struggling to meet your basic needs, you can apply for zakat. It takes about fifteen minutes, and everything you tell us is kept confidential.",
          ),
        ),
        hero_image: scene("hero-apply.jpg"),
        eligibility: rt(
          p("You may be eligible if:"),
          ul(
            "you are Muslim and live in Australia;",
            "you cannot meet essential costs such as rent, food, bills or medical care; and",
            "you do not hold wealth above the nisab.",
          ),
          p("Not sure? Apply anyway, or [call us](doc:contact_page) first."),
        ),
        steps: [
          {
            step_title: "Apply online",
            step_text: paras("Tell us about your situation, your household, income and what you need help with."),
          },
          {
            step_title: "Talk to a caseworker",
            step_text: paras(
              "A caseworker calls you within three working days and asks for documents such as bills or a notice from your landlord.",
            ),
          },
          {
            step_title: "Receive a decision",
            step_text: paras(
              "Most decisions are made within ten working days. Where possible, we pay the bill directly.",
            ),
          },
        ],
        apply_link: { link_type: "Web", url: "https://apply.nzf.org.au/start", target: "_blank" },
        apply_label: "Start your application",
        slices: [
          faqList("Before you apply", [
            [
              "Do I have to be a citizen?",
              paras("No. Permanent residents, refugees, asylum seekers and people on temporary visas can all apply."),
            ],
            [
              "Will my mosque find out?",
              paras("No. We do not share your application with anyone without your consent."),
            ],
          ]),
        ],
        ...seo(),
      },
    },
    {
      type: "learn_page",
      published: "2026-01-18",
      updated: "2026-10-20",
      slugFrom: "Learn",
      data: {
        title: title("Learn about zakat"),
        intro: rt(
          p(
            "Short, practical answers from our Shariah panel: what zakat is, who pays it, how to calculate it on modern assets, and who receives it.",
          ),
        ),
        hero_image: scene("hero-learn.jpg"),
        slices: [
          cardGrid("Start here", [
            {
              title: "Zakat explained",
              text: paras("The basics in five minutes."),
              image: scene("hero-zakat.jpg"),
              link: docLink("landing_page", "zakat-explained"),
            },
            {
              title: "Guides",
              text: paras("Step-by-step guides for common situations."),
              image: scene("hero-learn.jpg"),
              link: docLink("guides_page"),
            },
            {
              title: "Questions and answers",
              text: paras("Quick answers to the questions we hear most."),
              image: scene("hero-programs.jpg"),
              link: docLink("faq_page"),
            },
          ]),
          textBlock(
            "Ask a question",
            rt(p("Cannot find your answer? E-mail our donor care team and a member of the Shariah panel will reply.")),
          ),
        ],
        ...seo(),
      },
    },
    {
      type: "cases_page",
      published: "2026-01-18",
      slugFrom: "Cases",
      data: {
        title: title("Stories of support"),
        intro: rt(
          p(
            "Real situations, shared with permission and with names and details changed. Each one was funded by zakat from donors like you.",
          ),
        ),
        hero_image: scene("hero-cases.jpg"),
        ...seo(),
      },
    },
    {
      type: "programs_page",
      published: "2026-01-18",
      slugFrom: "Programs",
      data: {
        title: title("Our programs"),
        intro: rt(p("Four programs cover most of what people ask us for. Our partners help us reach further.")),
        hero_image: scene("hero-programs.jpg"),
        ...seo(),
      },
    },
  ];
}
