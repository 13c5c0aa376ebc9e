/**
 * The Hugo side of `npm run bench -- hugo`: a Hugo project whose pages match what nzf-build writes for
 * the synthetic repository (bench/synthetic.ts), so the two generators do comparable work per page.
 *
 * Each article and case page has nzf-build's head (description, canonical, Open Graph, manifest and
 * icons, stylesheet, site script), its header (the eight main links twice: the desktop bar and the
 * phone menu; the language link; the donate button), its footer (contact, seven links, five social
 * links, the acknowledgement), the rich text with its bold and links, and on an article "More to read"
 * with three cards. The two listing pages (/learn/ and /cases/) list every article or case as a card,
 * as nzf-build's do. Both generators write a sitemap; neither writes RSS or taxonomies. What Hugo does
 * not build: nzf-build's forty other pages (home, giving, calculator, account…), its service worker
 * and headers files. The bench prints both sides' page counts and bytes so the match can be checked.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";

const MAIN_LINKS = [
  ["Zakat calculator", "/calculate/"],
  ["Pay zakat", "/pay/zakat/"],
  ["Cases", "/cases/"],
  ["Programs", "/programs/"],
  ["Learn", "/learn/"],
  ["About", "/about/"],
  ["Apply", "/apply/"],
  ["Contact", "/contact/"],
];
const FOOTER_LINKS = [
  ["All ways to give", "/pay/"],
  ["Zakat guides", "/guides/"],
  ["Frequently asked questions", "/faq/"],
  ["Zakat explained", "/zakat-explained/"],
  ["My account", "/account/"],
  ["Privacy policy", "/privacy/"],
  ["Our charity listing (ACNC)", "https://www.acnc.gov.au/charity/charities"],
];
const SOCIAL_LINKS = [
  ["Facebook", "https://www.facebook.com/nzfsample"],
  ["Instagram", "https://www.instagram.com/nzfsample"],
  ["X (Twitter)", "https://x.com/nzfsample"],
  ["YouTube", "https://www.youtube.com/@nzfsample"],
  ["LinkedIn", "https://www.linkedin.com/company/nzfsample"],
];

function menu(name: string, links: string[][]): string {
  return links
    .map(([label, url], i) => `[[menu.${name}]]\nname = "${label}"\nurl = "${url}"\nweight = ${i + 1}\n`)
    .join("\n");
}

const CONFIG = `baseURL = "https://nzf.org.au/"
title = "National Zakat Foundation"
languageCode = "en-AU"
buildFuture = true
disableKinds = ["taxonomy", "term", "RSS"]
[markup.goldmark.extensions]
typographer = false
[markup.goldmark.parser]
autoHeadingID = false
${menu("main", MAIN_LINKS)}
${menu("footer", FOOTER_LINKS)}
${menu("social", SOCIAL_LINKS)}`;

const NAV_LIST = (cls: string) =>
  `<ul class="${cls}">{{ range site.Menus.main }}<li><a href="{{ .URL }}"{{ if eq .URL $.RelPermalink }} aria-current="page"{{ end }}>{{ .Name }}</a></li>{{ end }}</ul>`;
const LANGUAGE = (cls: string) =>
  `<ul class="lang-list ${cls}" aria-label="Languages"><li><a href="/ar-ae/" hrefLang="ar-AE" lang="ar-AE"><span class="visually-hidden" lang="en-AU">Home page in </span>العربية</a></li></ul>`;

const BASE = `<!doctype html><html lang="en-AU" dir="ltr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{ .Title }} | {{ site.Title }}</title><meta name="description" content="{{ .Description }}"><link rel="canonical" href="{{ .Permalink }}"><meta property="og:site_name" content="{{ site.Title }}"><meta property="og:title" content="{{ .Title }}"><meta property="og:type" content="{{ if .IsPage }}article{{ else }}website{{ end }}"><meta property="og:url" content="{{ .Permalink }}"><meta property="og:locale" content="en_AU"><meta property="og:description" content="{{ .Description }}"><meta name="twitter:card" content="summary"><meta name="theme-color" content="#663399"><link rel="manifest" href="/manifest.webmanifest"><link rel="icon" href="/favicon.ico" sizes="32x32"><link rel="apple-touch-icon" href="/apple-touch-icon.png"><link rel="stylesheet" href="/_assets/site.css"><script type="module" src="/_islands/page-scripts.js" fetchpriority="low" data-site-scripts></script></head><body><noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-55LSDKV5" title="Google Tag Manager" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript><a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="container header-inner"><a class="brand" href="/"><span class="brand-name">{{ site.Title }}</span></a><nav aria-label="Main" class="nav-desktop">${NAV_LIST("nav-list")}</nav>${LANGUAGE("lang-desktop")}<a class="button button-primary donate-button" href="/pay/zakat/">Pay zakat</a><details class="menu"><summary class="menu-button"><span class="menu-icon" aria-hidden="true"></span><span class="menu-label">Menu</span></summary><div class="menu-panel"><nav aria-label="Main">${NAV_LIST("menu-list")}</nav>${LANGUAGE("lang-menu")}</div></details></div></header>
<main id="main" tabindex="-1">{{ block "main" . }}{{ end }}</main>
<footer class="site-footer"><div class="container footer-grid"><section aria-labelledby="footer-contact"><h2 id="footer-contact">Contact us</h2><ul class="plain-list"><li><a href="mailto:info@nzf.org.au">info@nzf.org.au</a></li><li><a href="tel:1300975707">1300 975 707</a></li></ul><div class="address"><p>PO Box 1000</p><p>Lakemba NSW 2195</p><p>Australia</p></div></section><nav aria-labelledby="footer-links"><h2 id="footer-links">More</h2><ul class="plain-list">{{ range site.Menus.footer }}<li><a href="{{ .URL }}">{{ .Name }}</a></li>{{ end }}</ul></nav><section aria-labelledby="footer-social"><h2 id="footer-social">Follow us</h2><ul class="plain-list">{{ range site.Menus.social }}<li><a href="{{ .URL }}" rel="noopener">{{ .Name }}</a></li>{{ end }}</ul></section></div><div class="container footer-legal"><div class="acknowledgement"><p>National Zakat Foundation acknowledges the Traditional Custodians of the lands on which we live and work across Australia, and pays respect to their Elders past and present. Sovereignty was never ceded.</p></div><p>National Zakat Foundation · ABN 51 824 753 556</p></div></footer></body></html>`;

const CARD = (heading: string) =>
  `<li class="card"><div class="card-body"><${heading} class="card-title"><a href="{{ .RelPermalink }}">{{ .Title }}</a></${heading}><p class="card-meta">{{ .Date.Format "2 January 2006" }}</p><p>{{ .Description }}</p></div></li>`;

const ARTICLE = (kicker: string, after: string) =>
  `{{ define "main" }}<article class="container section narrow"><header class="article-header"><p class="kicker">${kicker}</p><h1>{{ .Title }}</h1><p class="lead">{{ .Description }}</p></header><div class="prose">{{ .Content }}</div>${after}</article>`;

// The first three other articles of the section, which Hugo keeps sorted newest first.
const MORE_TO_READ = `{{ $more := slice }}{{ range first 4 .CurrentSection.Pages }}{{ if and (ne .RelPermalink $.RelPermalink) (lt (len $more) 3) }}{{ $more = $more | append . }}{{ end }}{{ end }}<section class="container section" aria-labelledby="more-articles"><h2 id="more-articles">More to read</h2><ul class="card-grid">{{ range $more }}${CARD("h3")}{{ end }}</ul></section>`;

const LAYOUTS: Record<string, string> = {
  "_default/baseof.html": BASE,
  "_default/single.html": '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}',
  "_default/list.html": `{{ define "main" }}<section class="hero"><div class="container hero-inner"><div class="hero-text"><h1>{{ .Title }}</h1><div class="lead"><p>{{ .Description }}</p></div></div></div></section><div class="container section"><ul class="card-grid" aria-label="{{ .Title }}">{{ range .Pages }}${CARD("h2")}{{ end }}</ul></div>{{ end }}`,
  "index.html": '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}',
  "blog/single.html": `${ARTICLE('{{ .Params.author }} · {{ .Date.Format "2 January 2006" }}', "")}${MORE_TO_READ}{{ end }}`,
  "case/single.html": `${ARTICLE(
    "{{ .Params.location }}",
    '<p class="related">Part of our <a href="/program/{{ .Params.program }}/">{{ .Params.programTitle }}</a> program.</p><p><a class="button button-primary" href="/pay/zakat/">Give zakat to help people like this</a></p>',
  )}{{ end }}`,
};

export interface RichBlock {
  type: string;
  text: string;
  spans: { start: number; end: number; type: string; data?: { type?: string; uid?: string } }[];
}

const ROUTE: Record<string, string> = { blog_article: "blog", case: "case", program: "program" };

/** A rich-text block as Markdown, with its bold and its links to other documents. */
export function markdownBlock(block: RichBlock): string {
  let text = "";
  let at = 0;
  for (const span of [...block.spans].sort((a, b) => a.start - b.start)) {
    text += block.text.slice(at, span.start);
    const inner = block.text.slice(span.start, span.end);
    if (span.type === "strong") text += `**${inner}**`;
    else if (span.type === "hyperlink") text += `[${inner}](/${ROUTE[span.data!.type!]}/${span.data!.uid}/)`;
    else text += inner;
    at = span.end;
  }
  text += block.text.slice(at);
  return block.type === "heading2" ? `## ${text}` : block.type === "list-item" ? `- ${text}` : text;
}

const quoted = (value: string) => JSON.stringify(value);

/** Writes the Hugo project into `dir`; returns how many article and case pages it has. */
export async function writeHugoSite(dir: string, documents: PrismicDocument[]): Promise<number> {
  for (const path of Object.keys(LAYOUTS)) await mkdir(join(dir, "layouts", path, ".."), { recursive: true });
  for (const section of ["blog", "case"]) await mkdir(join(dir, "content", section), { recursive: true });
  await writeFile(join(dir, "config.toml"), CONFIG);
  for (const [path, text] of Object.entries(LAYOUTS)) await writeFile(join(dir, "layouts", path), text);
  await writeFile(
    join(dir, "content/blog/_index.md"),
    '---\ntitle: "Learn about zakat"\nurl: "/learn/"\ndescription: "Short, practical answers from our Shariah panel."\n---\n',
  );
  await writeFile(
    join(dir, "content/case/_index.md"),
    '---\ntitle: "Stories of support"\nurl: "/cases/"\ndescription: "Real situations, shared with permission and with names and details changed."\n---\n',
  );
  const titleOf = (d: PrismicDocument) => (d.data as { title?: { text: string }[] }).title?.[0]?.text ?? d.uid!;
  const programs = new Map(documents.filter((d) => d.type === "program").map((d) => [d.id, titleOf(d)]));
  let pages = 0;
  for (const d of documents) {
    if (d.type !== "blog_article" && d.type !== "case") continue;
    const data = d.data as Record<string, unknown>;
    const front = [
      `title: ${quoted(titleOf(d))}`,
      `date: ${data.published}`,
      `description: ${quoted(String(data.excerpt ?? data.summary ?? ""))}`,
    ];
    if (d.type === "blog_article") front.push(`author: ${quoted(String(data.author))}`);
    else {
      const program = data.program as { id: string; uid: string };
      front.push(`location: ${quoted(String(data.location))}`, `program: ${program.uid}`);
      front.push(`programTitle: ${quoted(programs.get(program.id) ?? program.uid)}`);
    }
    const blocks = data.body as RichBlock[];
    // Items of one list on consecutive lines, so Markdown makes a tight list as nzf-build's <ul> is.
    const body = blocks
      .map(
        (b, i) =>
          (i && !(b.type === "list-item" && blocks[i - 1]!.type === "list-item") ? "\n\n" : i ? "\n" : "") +
          markdownBlock(b),
      )
      .join("");
    await writeFile(join(dir, "content", ROUTE[d.type]!, `${d.uid}.md`), `---\n${front.join("\n")}\n---\n\n${body}\n`);
    pages++;
  }
  return pages;
}
