/**
 * The mark on a link from a page in one language to a page only in English (an Arabic page's link
 * to /contact/, say): a visible "EN" badge, itself marked English and left to right, and the same
 * said in the page's language for screen readers ("(بالإنجليزية)"). The link gets `hrefLang`.
 * Used by the templates (menu, footer, cards, rich text) and by the islands (contact links), so
 * every such link on the site looks and reads the same.
 */
import type { ReactNode } from "react";

/** The site's first language: every page has it; a link elsewhere in it from another language is marked. */
export const ENGLISH_HREFLANG = "en-au";

/**
 * True when a link on a page in `lang` leads to a page of the site in English: a path on the site
 * outside the language's own folder (`/ar-ae/…`). English pages and other sites' links never are.
 */
export function leadsToEnglish(href: string | null | undefined, lang: string): boolean {
  return (
    !!href &&
    lang !== ENGLISH_HREFLANG &&
    href.startsWith("/") &&
    !href.startsWith("//") &&
    !href.startsWith(`/${lang}/`)
  );
}

/** The mark itself, inside the link after its text. `said` is the page language's "in English". */
export function EnglishMark({ said }: { said: string }) {
  return (
    <>
      {said ? <span className="visually-hidden"> ({said})</span> : null}
      <span className="link-lang" lang="en" dir="ltr">
        EN
      </span>
    </>
  );
}

/** The mark as HTML, for rich text (templates/components/rich-text.tsx). Text is escaped by the caller. */
export function englishMarkHtml(said: string): string {
  return `${said ? `<span class="visually-hidden"> (${said})</span>` : ""}<span class="link-lang" lang="en" dir="ltr">EN</span>`;
}

/**
 * A link inside an island to a page of the site: marked when, from a page in `lang`, it leads to a
 * page only in English (the contact page and the account from an Arabic pay page).
 */
export function SiteLink({
  href,
  lang,
  said,
  className,
  children,
}: {
  href: string;
  /** The page's language ("ar-ae"); English pages mark nothing. */
  lang: string | undefined;
  /** "in English" in the page's language. */
  said: string;
  className?: string;
  children: ReactNode;
}) {
  const english = leadsToEnglish(href, lang ?? ENGLISH_HREFLANG);
  return (
    <a href={href} className={className} hrefLang={english ? ENGLISH_HREFLANG : undefined}>
      {children}
      {english ? <EnglishMark said={said} /> : null}
    </a>
  );
}
