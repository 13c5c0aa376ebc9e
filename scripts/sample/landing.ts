/** `landing_page` documents (/:uid): campaign pages built only from slices. */
import {
  callToAction,
  cardGrid,
  docLink,
  faqList,
  imageWithText,
  ol,
  p,
  paras,
  quote,
  rt,
  scene,
  seo,
  stats,
  textBlock,
  title,
  type DocSpec,
} from "./helpers.js";

export function landingDocuments(): DocSpec[] {
  return [
    {
      type: "landing_page",
      uid: "ramadan-appeal",
      tags: ["ramadan"],
      published: "2026-10-25",
      slugFrom: "Ramadan appeal 1448",
      data: {
        title: title("Ramadan appeal 1448"),
        slices: [
          imageWithText(
            scene("hero-ramadan.jpg"),
            "This Ramadan, keep it local",
            paras(
              "Ramadan 1448 is expected to begin around 8 February 2027. Families we support face the month with higher rents and grocery bills than ever. Your zakat and sadaqah can carry them through to Eid.",
            ),
            "right",
          ),
          stats("Our goal for Ramadan", [
            ["$1.5m", "zakat to distribute"],
            ["600", "families before Eid"],
            ["1,500", "food hampers"],
          ]),
          cardGrid("Ways to give this Ramadan", [
            {
              title: "Zakat",
              text: paras("Pay your annual zakat in the month of the Qur'an."),
              image: scene("hero-zakat.jpg"),
              link: docLink("zakat"),
            },
            {
              title: "Zakat al-Fitr",
              text: paras("$15 for each person in your household, before Eid."),
              image: scene("hero-ramadan.jpg"),
              link: docLink("fitr"),
            },
            {
              title: "Fidyah",
              text: paras("$15 for each fast you cannot make up."),
              image: scene("hero-sadaqah.jpg"),
              link: docLink("fidyah"),
            },
            {
              title: "Ramadan giving",
              text: paras("Sadaqah for food, rent relief and Eid gifts."),
              image: scene("hero-home.jpg"),
              link: docLink("ramadan"),
            },
          ]),
          faqList("Ramadan giving questions", [
            [
              "When should I pay Zakat al-Fitr?",
              paras("Before the Eid prayer. Paying in the last week of Ramadan gives us time to deliver it."),
            ],
            [
              "Can I give every night of the last ten?",
              paras("Yes: give a Ramadan gift each night, or one gift for all ten."),
            ],
          ]),
          callToAction(
            "Give before Eid",
            paras("Every gift received before Eid is distributed before Eid."),
            "Give now",
            docLink("ramadan"),
          ),
        ],
        ...seo({
          description: "Give zakat, Zakat al-Fitr, fidyah and sadaqah this Ramadan to families in need in Australia.",
        }),
      },
    },
    {
      type: "landing_page",
      uid: "zakat-explained",
      tags: ["zakat"],
      published: "2026-04-12",
      updated: "2026-09-18",
      slugFrom: "Zakat explained",
      data: {
        title: title("Zakat explained"),
        slices: [
          textBlock(
            "What is zakat?",
            rt(
              p(
                "Zakat is an obligation on every adult Muslim whose wealth stays above the nisab for a full lunar year. It is **2.5%** of that wealth, paid once a year to people entitled to receive it.",
              ),
              p(
                "The word means both *purification* and *growth*: giving it purifies what remains and, God willing, makes it grow.",
              ),
            ),
          ),
          textBlock(
            "Three steps",
            rt(
              ol(
                "Choose your zakat date.",
                "On that date, add up your zakatable wealth and subtract debts due now.",
                "If the total is above the nisab, pay 2.5%.",
              ),
            ),
          ),
          quote(
            "Take from their wealth a charity by which you purify them and cause them increase.",
            "The Qur'an, 9:103",
          ),
          faqList("Common questions", [
            [
              "What if I missed zakat in past years?",
              paras(
                "It is still owed. Estimate what was due for each year as best you can and pay it as soon as you are able.",
              ),
            ],
            [
              "Can I give zakat to my relatives?",
              paras(
                "To relatives in need you do not already have to support, yes; not to your parents, children or spouse.",
              ),
            ],
          ]),
          callToAction(
            "Work out your zakat",
            paras("Our calculator walks you through each kind of wealth."),
            "Open the calculator",
            docLink("calculate_page"),
          ),
        ],
        ...seo({ description: "What zakat is, who pays it and how to calculate it, in five minutes." }),
      },
    },
  ];
}
