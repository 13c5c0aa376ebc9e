/**
 * The site's chrome (header, menu, skip link, footer, language switcher) as a donor meets it in
 * Chromium, on a 390×844 phone and a 1280×800 desktop, in English and in Arabic: the header's
 * height, the menu by keyboard (focus where it should be), no sideways scrolling at 320 px, a focus
 * ring that contrasts at least 3:1 on the purple band and the dark footer, and axe-core. Screenshots
 * of each state go to test-results/journeys/chrome-*.png for review.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { sharedSampleSite, type SharedSite } from "../support/shared-site.js";
import { startStaticServer, type StaticServer } from "../../src/server/static-server.js";
import { isolatedContext, launchBrowser, watchProblems } from "../support/browser.js";
import { axeViolations, formatViolations } from "../support/axe.js";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const SHOTS = join(PROJECT_ROOT, "test-results", "journeys");

let site: SharedSite;
let server: StaticServer;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;

beforeAll(async () => {
  site = await sharedSampleSite();
  server = await startStaticServer({ root: site.outDir });
  browser = await launchBrowser();
  phone = await isolatedContext(browser, { viewport: PHONE });
  desktop = await isolatedContext(browser, { viewport: DESKTOP });
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await phone?.close();
  await desktop?.close();
  await browser?.close();
  await server?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `chrome-${name}.png`) });

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + path, { waitUntil: "load" });
  return page;
}

/** What has keyboard focus: its tag, text and whether it is inside the visible viewport. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const box = el?.getBoundingClientRect();
    const inView =
      !!box && box.width > 0 && box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
    return {
      tag: el?.tagName.toLowerCase(),
      text: el?.textContent?.trim() ?? "",
      inView,
      inMenu: !!el?.closest(".menu-panel"),
    };
  });

async function tabUntil(page: Page, selector: string, max = 8): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${max} presses of Tab never reached ${selector}`);
}

const headerHeight = (page: Page) => page.locator(".site-header").evaluate((el) => el.getBoundingClientRect().height);
/** The menu button as Chromium's accessibility tree exposes it to screen readers. */
async function menuButtonState(page: Page): Promise<{ role: string; name: string; expanded: boolean }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: root.nodeId, selector: "summary.menu-button" });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", { nodeId, fetchRelatives: false });
    const node = nodes[0]!;
    const expanded = node.properties?.find((prop) => prop.name === "expanded")?.value.value;
    return { role: String(node.role?.value), name: String(node.name?.value), expanded: expanded === true };
  } finally {
    await cdp.detach();
  }
}

const menuOpen = (page: Page) => page.locator("details.menu").evaluate((el) => (el as HTMLDetailsElement).open);

describe("the header on a 390×844 phone", () => {
  for (const { path, menu, first, lang, dir, other } of [
    {
      path: "/",
      menu: "Menu",
      first: "Zakat calculator",
      lang: "en-AU",
      dir: "ltr",
      other: { text: "العربية", href: "/ar-ae/" },
    },
    {
      path: "/ar-ae/",
      menu: "القائمة",
      // The calculator has no Arabic version yet: its link says it leads to English.
      first: "حاسبة الزكاة",
      lang: "ar-AE",
      dir: "rtl",
      other: { text: "English", href: "/" },
    },
  ]) {
    it(`${path}: one compact row with the donate button; the menu opens, moves focus and closes by keyboard`, async () => {
      const page = await open(phone, path);
      const problems = watchProblems(page);
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        lang,
        dir,
      ]);
      expect(await headerHeight(page)).toBeLessThanOrEqual(72);
      const donate = page.locator(".site-header .donate-button");
      expect(await donate.isVisible()).toBe(true);
      const donateBox = (await donate.boundingBox())!;
      expect(donateBox.y + donateBox.height).toBeLessThanOrEqual(72);
      // The logo is shown large enough to read: at least 40 px high.
      expect((await page.locator(".brand-logo img").boundingBox())!.height).toBeGreaterThanOrEqual(40);
      expect(await page.locator(".nav-desktop").isVisible()).toBe(false);
      expect(await page.locator(".menu-panel").isVisible()).toBe(false);
      await shot(page, `header-390-${dir}`);

      await tabUntil(page, "summary.menu-button");
      expect((await focused(page)).text).toBe(menu);
      expect(await menuButtonState(page)).toEqual({ role: "DisclosureTriangle", name: menu, expanded: false });
      await page.keyboard.press("Enter");
      expect(await menuOpen(page)).toBe(true);
      // Chromium exposes the disclosure's state on its button (aria-expanded, natively).
      expect(await menuButtonState(page)).toMatchObject({ expanded: true });
      expect(await page.locator(".menu-panel").isVisible()).toBe(true);
      await page.keyboard.press("Tab");
      expect(await focused(page)).toMatchObject({ tag: "a", text: first, inView: true, inMenu: true });
      // The language switcher is in the menu, in the other language, pointing at its version of this page.
      const switcher = page.locator(".menu-panel .lang-list a");
      expect(await switcher.getAttribute("href")).toBe(other.href);
      expect(await switcher.textContent()).toContain(other.text);
      await shot(page, `menu-open-390-${dir}`);
      const violations = await axeViolations(page);
      expect(formatViolations(path + " (menu open)", violations)).toBe("");

      await page.keyboard.press("Escape");
      expect(await menuOpen(page)).toBe(false);
      expect(await focused(page)).toMatchObject({ tag: "summary", text: menu, inView: true });
      expect(await page.locator(".menu-panel").isVisible()).toBe(false);
      // Reopened, a tap outside closes it.
      await page.keyboard.press("Enter");
      expect(await menuOpen(page)).toBe(true);
      await page.mouse.click(PHONE.width / 2, PHONE.height - 40);
      expect(await menuOpen(page)).toBe(false);
      expect([...problems.consoleErrors, ...problems.pageErrors]).toEqual([]);
      await page.close();
    });
  }
});

describe("the header on a 1280×800 desktop", () => {
  for (const { path, dir, switchTo, name } of [
    { path: "/", dir: "ltr", switchTo: "/ar-ae/", name: "Read this page in العربية" },
    { path: "/pay/zakat/", dir: "ltr", switchTo: "/ar-ae/pay/zakat/", name: "Read this page in العربية" },
    // No Arabic version of /about/: the switcher says it leads to the Arabic home page.
    { path: "/about/", dir: "ltr", switchTo: "/ar-ae/", name: "Home page in العربية" },
    { path: "/ar-ae/pay/zakat/", dir: "rtl", switchTo: "/pay/zakat/", name: "اقرأ هذه الصفحة باللغة English" },
  ]) {
    it(`${path}: navigation, language switcher and donate button on one row; the switcher leads to ${switchTo}`, async () => {
      const page = await open(desktop, path);
      expect(await headerHeight(page)).toBeLessThanOrEqual(72);
      expect(await page.locator("summary.menu-button").isVisible()).toBe(false);
      const rows = await page.$$eval(".nav-desktop a, .lang-desktop a, .site-header .donate-button", (els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2)),
      );
      expect(rows.length).toBeGreaterThan(5);
      expect(Math.max(...rows) - Math.min(...rows)).toBeLessThanOrEqual(2);
      const switcher = page.locator(".lang-desktop a");
      expect(await switcher.isVisible()).toBe(true);
      expect(await switcher.getAttribute("href")).toBe(switchTo);
      expect((await switcher.textContent())!.replace(/\s+/g, " ").trim()).toBe(name);
      await shot(page, `header-1280-${path.replace(/\W+/g, "-")}${dir}`);
      expect(formatViolations(path, await axeViolations(page))).toBe("");
      await page.close();
    });
  }
});

describe("no sideways scrolling at 320 px", () => {
  it("on the home and zakat pages in English and Arabic, also with the skip link focused", async () => {
    const narrow = await isolatedContext(browser, { viewport: { width: 320, height: 640 } });
    const overflow: string[] = [];
    for (const path of ["/", "/ar-ae/", "/pay/zakat/", "/ar-ae/pay/zakat/"]) {
      const page = await open(narrow, path);
      const widths = () =>
        page.evaluate(() => ({
          scroll: document.scrollingElement!.scrollWidth,
          client: document.scrollingElement!.clientWidth,
        }));
      const before = await widths();
      if (before.scroll > before.client) overflow.push(`${path}: ${before.scroll} > ${before.client}`);
      await page.keyboard.press("Tab");
      expect((await focused(page)).inView).toBe(true);
      const after = await widths();
      if (after.scroll > after.client) overflow.push(`${path} (skip link focused): ${after.scroll} > ${after.client}`);
      if (path === "/ar-ae/") await shot(page, "skip-link-320-rtl");
      await page.close();
    }
    await narrow.close();
    expect(overflow).toEqual([]);
  });
});

/** WCAG relative luminance contrast of two CSS rgb()/rgba() colours (alpha ignored: the ring colours are opaque). */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = css
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe("the focus ring", () => {
  it("contrasts at least 3:1 with the purple call-to-action band, the footer and the header", async () => {
    const page = await open(desktop, "/");
    // A key press first, so focus from script shows as keyboard focus (:focus-visible).
    await page.keyboard.press("Shift");
    const results: { where: string; ratio: number }[] = [];
    for (const [where, selector] of [
      ["call-to-action band", ".slice-cta .button"],
      ["footer", ".site-footer a"],
      ["header", ".nav-desktop a"],
    ] as const) {
      const target = page.locator(selector).first();
      await target.focus();
      const ring = await target.evaluate((el) => {
        const style = getComputedStyle(el);
        let bg = "rgba(0, 0, 0, 0)";
        for (let node: Element | null = el.parentElement; node; node = node.parentElement) {
          const colour = getComputedStyle(node).backgroundColor;
          if (!/rgba\(.*, 0\)$/.test(colour) && colour !== "transparent") {
            bg = colour;
            break;
          }
        }
        return {
          visible: el.matches(":focus-visible"),
          outline: { style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor },
          shadow: style.boxShadow.match(/rgba?\([^)]*\)/)?.[0] ?? null,
          background: bg,
        };
      });
      expect(ring.visible).toBe(true);
      expect(ring.outline.style).toBe("solid");
      expect(ring.outline.width).toBeGreaterThanOrEqual(2);
      // The ring is two colours side by side; the one that contrasts most with the background counts.
      const ratio = Math.max(
        contrast(ring.outline.color, ring.background),
        ring.shadow ? contrast(ring.shadow, ring.background) : 0,
      );
      results.push({ where, ratio: Math.round(ratio * 10) / 10 });
      await target.scrollIntoViewIfNeeded();
      const box = (await target.boundingBox())!;
      await page.screenshot({
        path: join(SHOTS, `chrome-focus-${where.replace(/\W+/g, "-")}.png`),
        clip: {
          x: Math.max(0, box.x - 24),
          y: Math.max(0, box.y - 24),
          width: box.width + 48,
          height: box.height + 48,
        },
      });
    }
    for (const { where, ratio } of results) expect(ratio, where).toBeGreaterThanOrEqual(3);
    await page.close();
  });
});

describe("the preview page opened directly", () => {
  it("says only that there is no preview to show", async () => {
    const page = await open(phone, "/preview/");
    await page.getByText("There is no preview to show").waitFor({ timeout: 15_000 });
    expect(await page.locator("main h1").textContent()).toBe("Preview");
    expect(await page.locator("main").textContent()).not.toMatch(/Loading your preview/);
    await shot(page, "preview-390-ltr");
    await page.close();
  });
});

describe("the Arabic chrome", () => {
  it("has its skip link, menu and footer in Arabic", async () => {
    const page = await open(phone, "/ar-ae/");
    expect(await page.locator(".skip-link").textContent()).toBe("انتقل إلى المحتوى");
    expect(await page.locator("#footer-contact").textContent()).toBe("اتصل بنا");
    expect(await page.locator(".site-footer").textContent()).not.toMatch(/Contact us|Follow us|More/);
    await page.close();
  });

  it("marks each menu and footer link that leads to an English-only page, and no other", async () => {
    const page = await open(phone, "/ar-ae/");
    const links = await page.locator(".menu-list a, .site-footer nav a").evaluateAll((as) =>
      as.map((a) => ({
        href: a.getAttribute("href")!,
        hreflang: a.getAttribute("hreflang"),
        marker: a.querySelector(".link-lang")?.textContent ?? null,
        name: a.textContent,
      })),
    );
    const toEnglish = links.filter((l) => l.href.startsWith("/") && !l.href.startsWith("/ar-ae/"));
    expect(toEnglish.length).toBeGreaterThan(0);
    // The marker is legible: at least 12 px (it was 11.2 px).
    const badge = await page
      .locator(".menu-list .link-lang, .site-footer .link-lang")
      .first()
      .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(badge).toBeGreaterThanOrEqual(12);
    // The calculator and the pay pages have Arabic versions: their links stay in Arabic.
    expect(links.find((l) => l.name === "حاسبة الزكاة")?.href).toBe("/ar-ae/calculate/");
    for (const link of toEnglish) {
      expect(link, link.href).toMatchObject({ hreflang: "en-au", marker: "EN" });
      expect(link.name, link.href).toContain("(بالإنجليزية)");
    }
    for (const link of links.filter((l) => !toEnglish.includes(l))) expect(link.marker, link.href).toBeNull();
    // The desktop row has no room for the marker: the brand keeps its width there.
    const desktopPage = await open(desktop, "/ar-ae/");
    expect(await desktopPage.locator(".nav-desktop .link-lang").first().isVisible()).toBe(false);
    expect(await desktopPage.locator(".brand").evaluate((b) => b.getBoundingClientRect().width)).toBeGreaterThan(100);
    await desktopPage.close();
    // The English pages' own links carry no marker.
    const english = await open(phone, "/");
    expect(await english.locator(".link-lang").count()).toBe(0);
    await english.close();
    await page.close();
  });

  it("marks English cards on the Arabic home page as English, for screen readers (WCAG 3.1.2)", async () => {
    const page = await open(phone, "/ar-ae/");
    const cards = await page.locator(".card").evaluateAll((items) =>
      items.map((li) => ({
        lang: li.getAttribute("lang"),
        dir: li.getAttribute("dir"),
        direction: getComputedStyle(li).direction,
        title: li.querySelector(".card-title")?.textContent ?? "",
      })),
    );
    const english = cards.filter((c) => /^[\x20-\x7e]+$/.test(c.title));
    expect(english.length).toBeGreaterThan(0);
    // …and laid out left to right, so its dates and full stops stay in place ("18 March 2026", not "March 2026 18").
    for (const card of english) expect(card, card.title).toMatchObject({ lang: "en-AU", dir: "ltr" });
    for (const card of english) expect(card.direction, card.title).toBe("ltr");
    for (const card of cards.filter((c) => !english.includes(c))) expect(card.lang, card.title).toBeNull();
    const home = await open(phone, "/");
    expect(await home.locator(".card[lang]").count()).toBe(0);
    await home.close();
    await page.close();
  });

  it("shows the phone number's digit groups in their order, left to right, inside the Arabic footer", async () => {
    const page = await open(phone, "/ar-ae/");
    const link = page.locator('.site-footer a[href^="tel:"]');
    const number = (await link.textContent())!;
    expect(number).toMatch(/^\d+( \d+)+$/);
    // Where each group is drawn: left to right in the order written (not 707 975 1300).
    const lefts = await link.evaluate((a) => {
      const text = a.firstChild as Text;
      const starts = [...text.data.matchAll(/\d+/g)].map((m) => m.index!);
      return starts.map((start) => {
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + 1);
        return range.getBoundingClientRect().left;
      });
    });
    expect(lefts.length).toBeGreaterThan(1);
    expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
    await page.close();
  });
});
