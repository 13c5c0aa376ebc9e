/**
 * The frame of every page: skip link, header with the global navigation and the donate button,
 * the page's main content, and the footer with contact details, links, social links and the
 * Acknowledgement of Country. Everything comes from the global document.
 */
import type { ReactNode } from "react";
import type { TemplateContext } from "../../src/render/types.js";
import { dataOf, group, image, rich, str } from "./fields.js";
import { Picture } from "./picture.js";
import { RichText } from "./rich-text.js";

function logoOf(g: ReturnType<typeof dataOf>) {
  const logo = image(g, "logo");
  return logo ? { ...logo, alt: null } : undefined;
}

function NavLink({ href, label, current }: { href: string | null; label: string; current: string }) {
  if (!href || !label) return null;
  const isCurrent = href === current;
  return (
    <li>
      <a href={href} aria-current={isCurrent ? "page" : undefined}>
        {label}
      </a>
    </li>
  );
}

function Header({ ctx }: { ctx: TemplateContext }) {
  const g = dataOf(ctx.global);
  const siteName = str(g, "site_name") || "National Zakat Foundation";
  const home = ctx.page.lang === "en-au" ? "/" : `/${ctx.page.lang}/`;
  const donateHref = ctx.link(g.donate_link as never) ?? "/pay/";
  return (
    <header className="site-header">
      <div className="container header-inner">
        <a className="brand" href={home}>
          {/* Decorative here: the site name is written right beside it. */}
          <Picture image={logoOf(g)} images={ctx.images} layout="fixed" sizes="160px" className="brand-logo" />
          <span className="brand-name">{siteName}</span>
        </a>
        <nav aria-label="Main">
          <ul className="nav-list">
            {group(g, "navigation").map((item, i) => (
              <NavLink key={i} href={ctx.link(item.link as never)} label={str(item, "label")} current={ctx.page.path} />
            ))}
          </ul>
        </nav>
        <a className="button button-primary donate-button" href={donateHref}>
          {str(g, "donate_label") || "Donate"}
        </a>
      </div>
    </header>
  );
}

function Footer({ ctx }: { ctx: TemplateContext }) {
  const g = dataOf(ctx.global);
  const email = str(g, "contact_email");
  const phone = str(g, "contact_phone");
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact">Contact us</h2>
          <ul className="plain-list">
            {email && (
              <li>
                <a href={`mailto:${email}`}>{email}</a>
              </li>
            )}
            {phone && (
              <li>
                <a href={`tel:${phone.replace(/[^+\d]/g, "")}`}>{phone}</a>
              </li>
            )}
          </ul>
          <RichText field={rich(g, "address")} ctx={ctx} className="address" />
        </section>
        <nav aria-labelledby="footer-links">
          <h2 id="footer-links">More</h2>
          <ul className="plain-list">
            {group(g, "footer_links").map((item, i) => (
              <NavLink key={i} href={ctx.link(item.link as never)} label={str(item, "label")} current={ctx.page.path} />
            ))}
          </ul>
        </nav>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social">Follow us</h2>
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
          {str(g, "site_name") || "National Zakat Foundation"}
          {str(g, "abn") ? ` · ABN ${str(g, "abn")}` : ""}
        </p>
      </div>
    </footer>
  );
}

const SOCIAL_LABELS: Record<string, string> = { facebook: "Facebook", instagram: "Instagram", x: "X (Twitter)", youtube: "YouTube", linkedin: "LinkedIn" };

type Memo = <T>(key: string, compute: () => T) => T;

/**
 * What of the page the layout shows: the page's language and, when the page is one the header or
 * footer links to, its path (that link is marked as the current page). Pages of the same variant
 * get the same layout, so it renders once per variant per build (templates/entry.tsx). Anything
 * else Layout comes to read from ctx.page must be added here.
 *
 * The paths the layout links to are worked out once per language through `memo` (the build's, which
 * gives each later page the dependencies of working them out): resolving every link for every page
 * took a render worker about 60 ms of 2,000 pages.
 */
export function layoutVariant(ctx: TemplateContext, memo: Memo = (_key, compute) => compute()): string {
  const linked = memo(`layout-links|${ctx.page.lang}`, () => {
    const g = dataOf(ctx.global);
    return new Set([...group(g, "navigation"), ...group(g, "footer_links")].map((item) => ctx.link(item.link as never)));
  });
  return `${ctx.page.lang}|${linked.has(ctx.page.path) ? ctx.page.path : ""}`;
}

export function Layout({ ctx, children }: { ctx: TemplateContext; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header ctx={ctx} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer ctx={ctx} />
    </>
  );
}
