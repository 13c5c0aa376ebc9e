/**
 * Pages with no content type of their own: the error pages, the preview resolver, the style
 * guide, the Ramadan calendars, the Right to Zakat draft, and redirect pages.
 */
import type { Template } from "../template.js";
import { dataOf, rich, str } from "../components/fields.js";
import { RichText } from "../components/rich-text.js";
import { IslandSlot } from "../components/blocks.js";

export const notFound: Template = {
  meta: () => ({ title: "Page not found", noindex: true }),
  Body({ ctx }) {
    const g = dataOf(ctx.global);
    return (
      <div className="container section narrow">
        <h1>{str(g, "not_found_title") || "We could not find that page"}</h1>
        <RichText field={rich(g, "not_found_text")} ctx={ctx} />
        <ul>
          <li>
            <a href="/">Go to the home page</a>
          </li>
          <li>
            <a href="/calculate/">Calculate your zakat</a>
          </li>
          <li>
            <a href="/pay/">Give</a>
          </li>
        </ul>
      </div>
    );
  },
};

export const serverError: Template = {
  meta: () => ({ title: "Something went wrong", noindex: true }),
  Body: () => (
    <div className="container section narrow">
      <h1>Something went wrong</h1>
      <p>
        Sorry, the page could not be loaded. Please try again in a minute. If you were giving, nothing was charged
        unless you received a receipt.
      </p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  ),
};

export const preview: Template = {
  // The preview loader every page carries loads the preview bundle on this page (src/client/site/preview-loader.ts).
  // The heading holds for both outcomes; the slot's text says which: loading, or (opened without a
  // preview link) that there is nothing to show (src/client/preview/start-preview.ts replaces it).
  meta: () => ({ title: "Preview", noindex: true }),
  Body: () => (
    <div className="container section narrow">
      <h1>Preview</h1>
      <IslandSlot name="preview">
        <p>Loading your preview. Please wait while your updates are loading…</p>
        <noscript>
          <p>Previews need JavaScript. Turn it on and open the preview link again.</p>
        </noscript>
      </IslandSlot>
    </div>
  ),
};

export const ramadanCalendars: Template = {
  meta: () => ({
    title: "Ramadan calendars",
    description:
      "Prayer times and fasting calendars for Ramadan in Australian cities, and how to give throughout the month.",
  }),
  Body: () => (
    <div className="container section narrow">
      <h1>Ramadan calendars</h1>
      <p>
        Our Ramadan calendars list suhoor and iftar times for Sydney, Melbourne, Brisbane, Perth, Adelaide, Canberra,
        Hobart and Darwin, prepared with local mosques. Times follow the sighting of the moon, so please check with your
        local mosque at the start and end of the month.
      </p>
      <h2>Give every night</h2>
      <p>
        Spread your sadaqah across every night of Ramadan, or the last ten nights when Laylat al-Qadr is sought, with
        our <a href="/pay/ramadan/">Ramadan giving</a>.
      </p>
      <h2>Zakat al-fitr</h2>
      <p>
        Zakat al-fitr is due from every Muslim before the Eid prayer. <a href="/pay/fitr/">Pay your fitr</a> early so it
        reaches families in time for Eid.
      </p>
    </div>
  ),
};

export const rightToZakatDraft: Template = {
  meta: () => ({ title: "The right to zakat (draft)", noindex: true }),
  Body: () => (
    <div className="container section narrow">
      <p className="kicker">Draft for consultation</p>
      <h1>The right to zakat</h1>
      <p>
        Zakat is not charity given at the donor's discretion: it is the right of those eligible to receive it. This
        draft sets out how the foundation assesses eligibility under the eight categories named in the Qur'an (9:60),
        how quickly it aims to decide, and how applicants can ask for a review.
      </p>
      <h2>Our commitments</h2>
      <ul>
        <li>A decision on every complete application within ten working days.</li>
        <li>Reasons in writing when an application is declined, and a way to ask for a review.</li>
        <li>Dignity and confidentiality: applicants' details are never shared with donors.</li>
      </ul>
      <p>
        Comments on this draft are welcome through our <a href="/contact/">contact page</a>.
      </p>
    </div>
  ),
};

export const styleguide: Template = {
  meta: () => ({ title: "Style guide", noindex: true }),
  Body: () => (
    <div className="container section">
      <h1>Style guide</h1>
      <p className="lead">The building blocks of the site, for editors and developers.</p>
      <h2>Colours</h2>
      <ul className="swatches">
        <li className="swatch swatch-primary">Primary #663399</li>
        <li className="swatch swatch-ink">Ink #1d1b22</li>
        <li className="swatch swatch-paper">Paper #ffffff</li>
      </ul>
      <h2>Buttons</h2>
      <p>
        <a className="button button-primary" href="/pay/">
          Primary action
        </a>{" "}
        <a className="button button-secondary" href="/calculate/">
          Secondary action
        </a>
      </p>
      <h2>Text</h2>
      <div className="prose">
        <h3>Heading level 3</h3>
        <p>
          Body text with <strong>strong</strong>, <em>emphasis</em> and <a href="/learn/">a link</a>.
        </p>
        <ul>
          <li>A list item</li>
          <li>Another list item</li>
        </ul>
        <blockquote>
          <p>A quotation.</p>
        </blockquote>
      </div>
      <h2>Questions</h2>
      <details className="faq-item">
        <summary>A question that opens</summary>
        <p>Its answer.</p>
      </details>
    </div>
  ),
};

export const redirect: Template = {
  bare: true,
  meta: (ctx) => ({ title: "Moved", noindex: true, redirectTo: ctx.page.redirectTo }) as never,
  Body: ({ ctx }) => (
    <main className="container section">
      <h1>This page has moved</h1>
      <p>
        It is now at <a href={ctx.page.redirectTo}>{ctx.page.redirectTo}</a>.
      </p>
    </main>
  ),
};
