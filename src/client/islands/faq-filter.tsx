/**
 * FAQ with a search box. The questions are native `<details>` elements, so the FAQ works with
 * JavaScript off; the island only adds filtering. The search box stays hidden until hydrated,
 * so nobody sees a control that does nothing.
 */
import { useEffect, useState } from "react";
import { useIslandId } from "../island-id.js";

export interface FaqItem {
  question: string;
  /** The answer as HTML, already rendered from rich text by the build. */
  answerHtml: string;
  category?: string;
}

export interface FaqFilterProps {
  items: FaqItem[];
  searchLabel?: string;
  /** Where a visitor whose question is not here can ask it. */
  contactHref?: string;
}

const normalize = (text: string) =>
  text
    .toLocaleLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
const stripTags = (html: string) => html.replace(/<[^>]*>/g, " ");

export default function FaqFilter({
  items,
  searchLabel = "Search the questions",
  contactHref = "/contact/",
}: FaqFilterProps) {
  const [ready, setReady] = useState(false);
  const [query, setQuery] = useState("");
  const inputId = useIslandId("faq-search");
  const statusId = useIslandId("faq-status");
  useEffect(() => setReady(true), []);

  const words = normalize(query).split(/\s+/).filter(Boolean);
  const matches = (item: FaqItem) => {
    const haystack = normalize(`${item.question} ${stripTags(item.answerHtml)} ${item.category ?? ""}`);
    return words.every((w) => haystack.includes(w));
  };
  const visible = items.filter(matches).length;

  return (
    <div className="faq-filter">
      <div className="faq-search" hidden={!ready}>
        <label htmlFor={inputId}>{searchLabel}</label>
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-describedby={statusId}
          autoComplete="off"
        />
        <p id={statusId} className="muted" aria-live="polite">
          {words.length ? `${visible} of ${items.length} questions match` : ""}
        </p>
        {words.length && !visible ? (
          // Not a dead end: another spelling, every question again, or a person to ask.
          <p className="faq-none">
            Try other words or another spelling,{" "}
            <button type="button" className="link-button" onClick={() => setQuery("")}>
              show every question
            </button>
            , or <a href={contactHref}>ask us your question</a>.
          </p>
        ) : null}
      </div>
      <div className="faq-list">
        {items.map((item, i) => (
          <details key={i} className="faq-item" hidden={!matches(item)}>
            <summary>{item.question}</summary>
            <div className="prose" dangerouslySetInnerHTML={{ __html: item.answerHtml }} />
          </details>
        ))}
      </div>
    </div>
  );
}
