/**
 * The frame of every page: skip link, header with the global navigation and the donate button,
 * the page's main content, and the footer with contact details, links, social links and the
 * Acknowledgement of Country. Everything comes from the global document of the page's language,
 * except the site's own words (templates/i18n/) and the language switcher (the page's alternates).
 */
import { EnglishMark, leadsToEnglish } from "../../src/client/link-lang.js";
import type { ReactNode } from "react";
import type { TemplateContext } from "../../src/template-kit/types.js";
import { MASTER_LANG, pathForDocument } from "../../src/content/routes.js";
import { chromeStrings, htmlLang, type ChromeStrings } from "../i18n/index.js";
import { contactField, dataOf, group, image, rich, str } from "./fields.js";
import { Picture } from "./picture.js";
import { RichText } from "./rich-text.js";

/** The logo carries the foundation's name (the link's accessible name); the written name stands in when there is none. */
function logoOf(g: ReturnType<typeof dataOf>, siteName: string) {
  const logo = image(g, "logo");
  return logo ? { ...logo, alt: siteName } : undefined;
}

function NavLink({
  href,
  label,
  current,
  lang,
  t,
}: {
  href: string | null;
  label: string;
  current: string;
  lang: string;
  t: ChromeStrings;
}) {
  if (!href || !label) return null;
  const isCurrent = href === current;
  // A page of the site with no version in this page's language (the Arabic menu's calculator, say):
  // the link says so, so an Arabic reader is not taken to English unwarned.
  const inEnglish = leadsToEnglish(href, lang);
  return (
    <li>
      <a href={href} aria-current={isCurrent ? "page" : undefined} hrefLang={inEnglish ? MASTER_LANG : undefined}>
        {label}
        {inEnglish ? <EnglishMark said={t.inEnglish} /> : null}
      </a>
    </li>
  );
}

/** The global document's list of links (the header's navigation, the footer's links) as list items. */
function navLinks(ctx: TemplateContext, t: ChromeStrings, field: "navigation" | "footer_links") {
  return group(dataOf(ctx.global), field).map((item, i) => (
    <NavLink
      key={i}
      href={ctx.link(item.link as never)}
      label={str(item, "label")}
      current={ctx.page.path}
      lang={ctx.page.lang}
      t={t}
    />
  ));
}

/** A link to this page in another language: its alternate when it has one, else that language's home page. */
export interface LanguageLink {
  lang: string;
  href: string;
  /** Whether `href` is this page in that language (else that language's home page). */
  samePage: boolean;
}

/**
 * The other languages the site has a home page in, each with where this page's switcher leads:
 * the page's own alternate (the hreflang alternates of the head) or that language's home page.
 */
export function languageLinks(ctx: TemplateContext): LanguageLink[] {
  const links: LanguageLink[] = [];
  for (const lang of [...ctx.graph.languages].sort()) {
    if (lang === ctx.page.lang) continue;
    const alternate = ctx.page.alternates.find((alt) => alt.lang === lang);
    const home = ctx.graph.single("home_page", lang);
    const homePath = home && home.lang === lang ? pathForDocument(home) : lang === MASTER_LANG ? "/" : null;
    const href = alternate?.path ?? homePath;
    if (href) links.push({ lang, href, samePage: Boolean(alternate) });
  }
  return links;
}

function LanguageSwitcher({ ctx, t, className }: { ctx: TemplateContext; t: ChromeStrings; className: string }) {
  const links = languageLinks(ctx);
  if (!links.length) return null;
  return (
    <ul className={`lang-list ${className}`} aria-label={t.languages}>
      {links.map(({ lang, href, samePage }) => {
        const name = chromeStrings(lang).languageName;
        return (
          <li key={lang}>
            <a href={href} hrefLang={htmlLang(lang)} lang={htmlLang(lang)}>
              <span className="visually-hidden" lang={htmlLang(ctx.page.lang)}>
                {samePage ? t.readIn : t.homeIn}{" "}
              </span>
              {name}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function Header({ ctx, t }: { ctx: TemplateContext; t: ChromeStrings }) {
  const g = dataOf(ctx.global);
  const siteName = str(g, "site_name") || t.siteName;
  const home = ctx.page.lang === MASTER_LANG ? "/" : `/${ctx.page.lang}/`;
  const donateHref = ctx.link(g.donate_link as never) ?? "/pay/";
  const logo = logoOf(g, siteName);
  const items = navLinks(ctx, t, "navigation");
  // Two copies of the navigation, one shown at a time by the stylesheet: the desktop row, and the
  // phone's menu, a <details> disclosure that opens and closes without JavaScript
  // (src/client/site/menu.ts adds Escape and putting focus back on the button).
  return (
    <header className="site-header">
      <div className="container header-inner">
        <a className="brand" href={home}>
          {logo ? (
            <Picture image={logo} images={ctx.images} layout="fixed" sizes="144px" eager className="brand-logo" />
          ) : (
            <span className="brand-name">{siteName}</span>
          )}
        </a>
        <nav aria-label={t.mainNavigation} className="nav-desktop">
          <ul className="nav-list">{items}</ul>
        </nav>
        <LanguageSwitcher ctx={ctx} t={t} className="lang-desktop" />
        <a className="button button-primary donate-button" href={donateHref}>
          {str(g, "donate_label") || t.donate}
        </a>
        <details className="menu">
          <summary className="menu-button">
            <span className="menu-icon" aria-hidden="true"></span>
            <span className="menu-label">{t.menu}</span>
          </summary>
          <div className="menu-panel">
            <nav aria-label={t.mainNavigation}>
              <ul className="menu-list">{items}</ul>
            </nav>
            <LanguageSwitcher ctx={ctx} t={t} className="lang-menu" />
          </div>
        </details>
      </div>
    </header>
  );
}

function Footer({ ctx, t }: { ctx: TemplateContext; t: ChromeStrings }) {
  const g = dataOf(ctx.global);
  const email = contactField(g, "contact_email");
  const phone = contactField(g, "contact_phone");
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">{t.contactUs}</h2>
          <ul className="plain-list">
            {email && (
              <li>
                <a href={`mailto:${email}`}>{email}</a>
              </li>
            )}
            {phone && (
              <li>
                {/* dir="ltr": in an Arabic page the digit groups would otherwise read right to left (707 975 1300). */}
                <a href={`tel:${phone.replace(/[^+\d]/g, "")}`} dir="ltr">
                  {phone}
                </a>
              </li>
            )}
          </ul>
          <RichText field={rich(g, "address")} ctx={ctx} className="address" />
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links">{t.more}</h2>
          <ul className="plain-list">{navLinks(ctx, t, "footer_links")}</ul>
        </nav>
        <UpdatesSignUp ctx={ctx} t={t} />
        <section aria-labelledby="footer-social">
          <h2 id="footer-social">{t.followUs}</h2>
          <ul className="plain-list">
            {group(g, "social_links").map((item, i) => {
              const href = ctx.link(item.url as never);
              const platform = str(item, "platform");
              return href ? (
                <li key={i}>
                  <a href={href} rel="noopener">
                    {SOCIAL_LABELS[platform] ?? platform}
                  </a>
                </li>
              ) : null;
            })}
          </ul>
        </section>
      </div>
      <div className="container footer-legal">
        <RichText field={rich(g, "acknowledgement")} ctx={ctx} className="acknowledgement" />
        <p>
          {str(g, "site_name") || t.siteName}
          {contactField(g, "abn") ? ` · ${t.abn} ${contactField(g, "abn")}` : ""}
        </p>
      </div>
    </footer>
  );
}

/** The payments service's URL when this build has one: the sign-up posts there (CSP's connect-src has it). */
function serviceUrlOf(ctx: TemplateContext): string | null {
  const p = ctx.site.public.payments as { apiUrl?: unknown } | undefined;
  return typeof p?.apiUrl === "string" && p.apiUrl ? p.apiUrl : null;
}

/**
 * The footer's sign-up for e-mail updates (issue 39, marketingApi): hidden until the site script
 * takes it over (src/client/site/updates-signup.ts), since without JavaScript it cannot post to the
 * service; absent when the build has no service. The words beside the button are the consent, sent
 * with the sign-up and kept with it; the service e-mails a link to confirm (double opt-in).
 * `website` is the honeypot: out of sight and out of the tab order, people leave it empty.
 */
function UpdatesSignUp({ ctx, t }: { ctx: TemplateContext; t: ChromeStrings }) {
  const api = serviceUrlOf(ctx);
  if (!api) return null;
  return (
    <section
      aria-labelledby="footer-updates"
      className="footer-updates"
      hidden
      data-updates-signup=""
      data-api={api}
      data-sending={t.updatesSending}
      data-sent={t.updatesSent}
      data-failed={t.updatesFailed}
    >
      <h2 id="footer-updates">{t.updatesHeading}</h2>
      <form noValidate>
        <label htmlFor="footer-updates-email">{t.updatesEmail}</label>
        <input
          id="footer-updates-email"
          name="email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          required
          maxLength={254}
          aria-describedby="footer-updates-consent"
        />
        <p id="footer-updates-consent" className="footer-updates-consent">
          {t.updatesConsent}
        </p>
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor="footer-updates-website">Website</label>
          <input id="footer-updates-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <button type="submit" className="button">
          {t.updatesSubmit}
        </button>
        <p className="footer-updates-status" role="status" />
      </form>
    </section>
  );
}

const SOCIAL_LABELS: Record<string, string> = {
  facebook: "Facebook",
  instagram: "Instagram",
  x: "X (Twitter)",
  youtube: "YouTube",
  linkedin: "LinkedIn",
};

type Memo = <T>(key: string, compute: () => T) => T;

/**
 * What of the page the layout shows: the page's language, its language switcher's links (its
 * alternates) and, when the page is one the header or footer links to, its path (that link is marked
 * as the current page). Pages of the same variant
 * get the same layout, so it renders once per variant per build (templates/entry.tsx). Anything
 * else Layout comes to read from ctx.page must be added here.
 *
 * The paths the layout links to are worked out once per language through `memo` (the build's, which
 * gives each later page the dependencies of working them out), instead of resolving every link for
 * every page.
 */
export function layoutVariant(ctx: TemplateContext, memo: Memo = (_key, compute) => compute()): string {
  const linked = memo(`layout-links|${ctx.page.lang}`, () => {
    const g = dataOf(ctx.global);
    return new Set(
      [...group(g, "navigation"), ...group(g, "footer_links")].map((item) => ctx.link(item.link as never)),
    );
  });
  // The language switcher links to this page's alternates, so pages that have some get their own.
  const switcher = languageLinks(ctx)
    .map((link) => `${link.lang}=${link.href}${link.samePage ? "" : " (home)"}`)
    .join(",");
  return `${ctx.page.lang}|${linked.has(ctx.page.path) ? ctx.page.path : ""}|${switcher}`;
}

export function Layout({ ctx, children }: { ctx: TemplateContext; children: ReactNode }) {
  const t = chromeStrings(ctx.page.lang);
  return (
    <>
      <a className="skip-link" href="#main">
        {t.skipToContent}
      </a>
      <Header ctx={ctx} t={t} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer ctx={ctx} t={t} />
    </>
  );
}
