import type { Template } from "../template.js";
import { Hero, metaFromSeo } from "../components/blocks.js";
import { dataOf, group, pageTitle, rich, str } from "../components/fields.js";
import { richTextHtml } from "../components/rich-text.js";
import { Island } from "../../src/template-kit/islands.js";
import FaqFilter from "../../src/client/islands/faq-filter.js";

export const faq: Template = {
  meta(ctx) {
    const items = group(dataOf(ctx.doc), "faqs");
    return {
      ...metaFromSeo(ctx, "Frequently asked questions"),
      jsonLd: [
        {
          "@context": "https://schema.org",
          "@type": "FAQPage",
          mainEntity: items.map((item) => ({
            "@type": "Question",
            name: str(item, "question"),
            acceptedAnswer: { "@type": "Answer", text: richTextHtml(rich(item, "answer"), ctx) },
          })),
        },
      ],
    };
  },
  Body({ ctx }) {
    const items = group(dataOf(ctx.doc), "faqs").map((item) => ({
      question: str(item, "question"),
      answerHtml: richTextHtml(rich(item, "answer"), ctx),
      category: str(item, "category") || undefined,
    }));
    return (
      <>
        <Hero ctx={ctx} title={pageTitle(ctx, "Frequently asked questions")} intro="intro" />
        <div className="container section narrow">
          <Island name="faq-filter" component={FaqFilter} props={{ items }} />
        </div>
      </>
    );
  },
};
