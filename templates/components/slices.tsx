/**
 * The slice zone: renders each shared slice (see slices/) in order. Unknown slice types render
 * nothing, so adding a slice in Prismic before the template knows it never breaks a build.
 */
import type { TemplateContext } from "../../src/template-kit/types.js";
import { group, image, rich, str, type Data } from "./fields.js";
import { Picture } from "./picture.js";
import { RichText } from "./rich-text.js";

interface Slice {
  slice_type: string;
  primary?: Data;
  items?: Data[];
  id?: string;
}

function SliceView({ slice, ctx }: { slice: Slice; ctx: TemplateContext }) {
  const p = slice.primary ?? {};
  const items = slice.items ?? [];
  const heading = str(p, "heading");
  switch (slice.slice_type) {
    case "text_block":
      return (
        <section className="slice slice-text container">
          {heading ? <h2>{heading}</h2> : null}
          <RichText field={rich(p, "content")} ctx={ctx} />
        </section>
      );
    case "image_with_text":
      return (
        <section className={`slice slice-image-text container image-${str(p, "image_side") || "left"}`}>
          <Picture image={image(p, "image")} images={ctx.images} sizes="(max-width: 900px) 100vw, 50vw" />
          <div>
            {heading ? <h2>{heading}</h2> : null}
            <RichText field={rich(p, "content")} ctx={ctx} />
          </div>
        </section>
      );
    case "call_to_action": {
      const href = ctx.link(p.button_link as never);
      return (
        <section className="slice slice-cta">
          <div className="container">
            {heading ? <h2>{heading}</h2> : null}
            <RichText field={rich(p, "text")} ctx={ctx} />
            {href ? (
              <a className="button button-primary" href={href}>
                {str(p, "button_label") || "Find out more"}
              </a>
            ) : null}
          </div>
        </section>
      );
    }
    case "faq_list":
      return (
        <section className="slice slice-faq container">
          {heading ? <h2>{heading}</h2> : null}
          {items.map((item, i) => (
            <details key={i} className="faq-item">
              <summary>{str(item, "question")}</summary>
              <RichText field={rich(item, "answer")} ctx={ctx} />
            </details>
          ))}
        </section>
      );
    case "card_grid":
      return (
        <section className="slice slice-cards container">
          {heading ? <h2>{heading}</h2> : null}
          <ul className="card-grid">
            {items.map((item, i) => {
              const href = ctx.link(item.card_link as never);
              return (
                <li className="card" key={i}>
                  <Picture
                    image={image(item, "card_image")}
                    images={ctx.images}
                    sizes="(max-width: 700px) 100vw, 33vw"
                  />
                  <div className="card-body">
                    <h3 className="card-title">
                      {href ? <a href={href}>{str(item, "card_title")}</a> : str(item, "card_title")}
                    </h3>
                    <RichText field={rich(item, "card_text")} ctx={ctx} />
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      );
    case "quote":
      return (
        <figure className="slice slice-quote container">
          <blockquote>
            <RichText field={rich(p, "quote")} ctx={ctx} />
          </blockquote>
          {str(p, "attribution") ? <figcaption>{str(p, "attribution")}</figcaption> : null}
        </figure>
      );
    case "stats":
      return (
        <section className="slice slice-stats container">
          {heading ? <h2>{heading}</h2> : null}
          <dl className="stats">
            {items.map((item, i) => (
              <div key={i}>
                <dt>{str(item, "label")}</dt>
                <dd>{str(item, "value")}</dd>
              </div>
            ))}
          </dl>
        </section>
      );
    default:
      return null;
  }
}

export function SliceZone({ ctx, field = "slices" }: { ctx: TemplateContext; field?: string }) {
  const slices = group((ctx.doc?.data ?? {}) as Data, field) as unknown as Slice[];
  return (
    <>
      {slices.map((slice, i) => (
        <SliceView key={slice.id ?? i} slice={slice} ctx={ctx} />
      ))}
    </>
  );
}
