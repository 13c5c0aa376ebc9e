/** The `global` document: site name, navigation, footer, contact details. */
import { docLink, image, p, rt, web, type DocSpec } from "./helpers.js";

const nav = (label: string, link: ReturnType<typeof docLink>) => ({ label, link });

export function globalDocuments(): DocSpec[] {
  return [
    {
      type: "global",
      published: "2026-01-12",
      updated: "2026-10-28",
      slugFrom: "Global",
      data: {
        site_name: "National Zakat Foundation",
        tagline: "Your zakat, for Australians in need",
        logo: image("logo-nzf.png", "National Zakat Foundation"),
        navigation: [
          nav("Zakat calculator", docLink("calculate_page")),
          nav("Pay zakat", docLink("zakat")),
          nav("Cases", docLink("cases_page")),
          nav("Programs", docLink("programs_page")),
          nav("Learn", docLink("learn_page")),
          nav("About", docLink("about_page")),
          nav("Apply", docLink("apply_page")),
          nav("Contact", docLink("contact_page")),
        ],
        footer_links: [
          nav("All ways to give", docLink("pay_page")),
          nav("Zakat guides", docLink("guides_page")),
          nav("Frequently asked questions", docLink("faq_page")),
          nav("Zakat explained", docLink("landing_page", "zakat-explained")),
          nav("My account", docLink("account_page")),
          nav("Privacy policy", docLink("privacy_policy_page")),
          nav("Our charity listing (ACNC)", web("https://www.acnc.gov.au/charity/charities", true)),
        ],
        donate_label: "Pay zakat",
        donate_link: docLink("zakat"),
        contact_email: "salam@nzf.example",
        contact_phone: "1300 975 707",
        address: rt(p("PO Box 1000"), p("Lakemba NSW 2195"), p("Australia")),
        abn: "41 600 273 915",
        acknowledgement: rt(
          p(
            "National Zakat Foundation acknowledges the Traditional Custodians of the lands on which we live and work across Australia, and pays respect to their Elders past and present. Sovereignty was never ceded.",
          ),
        ),
        social_links: [
          { platform: "facebook", url: web("https://www.facebook.com/nzfsample", true) },
          { platform: "instagram", url: web("https://www.instagram.com/nzfsample", true) },
          { platform: "x", url: web("https://x.com/nzfsample", true) },
          { platform: "youtube", url: web("https://www.youtube.com/@nzfsample", true) },
          { platform: "linkedin", url: web("https://www.linkedin.com/company/nzfsample", true) },
        ],
        default_meta_description:
          "National Zakat Foundation collects zakat in Australia and pays it to Muslims in need here, through casework, emergency grants and partner programs.",
        default_social_image: image("social-default.jpg", "National Zakat Foundation: purple arches over a gradient"),
        not_found_title: "We could not find that page",
        not_found_text: rt(
          p("The page may have moved, or the link may be mistyped. Try the [zakat calculator](doc:calculate_page), [pay your zakat](doc:zakat) or go back to the [home page](doc:home_page)."),
          p("If you followed a link from our site, please [let us know](doc:contact_page) so we can fix it."),
        ),
      },
    },
  ];
}
