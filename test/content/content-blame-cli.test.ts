/**
 * Content problems blame the content (issue 35), through the compiled CLI against the local Prismic
 * stub: a calculator rate of 20 % stops the build naming the calculate page and its field (not a
 * template line), with every other problem of the run listed beside it; a contact e-mail that is
 * not one is named and left out of every page, never published as `mailto:Nisl pretium fusce`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { afterAll, describe, expect, it } from "vitest";
import { removeTemporary } from "../cli/cli-process.js";
import { buildFetched, sampleAsFetched, stopStubs } from "../images/attack-content.js";

afterAll(async () => {
  await stopStubs();
  await removeTemporary();
});

async function sampleWith(change: (doc: PrismicDocument) => PrismicDocument): Promise<PrismicDocument[]> {
  return (await sampleAsFetched()).map((doc) => change(structuredClone(doc)));
}

const badEmail = (doc: PrismicDocument) =>
  doc.type === "global"
    ? ({ ...doc, data: { ...doc.data, contact_email: "Nisl pretium fusce" } } as PrismicDocument)
    : doc;

describe("content problems, through the compiled CLI", () => {
  it("a calculator rate of 20 % stops the build naming the document and field, with the other problems listed", async () => {
    const documents = await sampleWith((doc) =>
      doc.type === "calculate_page"
        ? ({ ...doc, data: { ...doc.data, lunar_rate_percent: 20 } } as PrismicDocument)
        : badEmail(doc),
    );
    const calculate = documents.find((d) => d.type === "calculate_page")!;
    const run = await buildFetched(documents);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(
      new RegExp(
        `\\[DOCUMENT_INVALID\\] Document ${calculate.id} \\(calculate_page\\): lunar_rate_percent is 20; it must be a percentage above 0 and at most 10`,
      ),
    );
    expect(run.output).toContain("Fix the document in Prismic");
    expect(run.output).not.toContain("settings.ts");
    expect(run.output).not.toContain("RENDER_FAILED");
    expect(run.output).not.toContain("not at fault");
    // The run's other problems are listed too, not hidden behind the first.
    expect(run.output).toMatch(
      /\[DOCUMENT_FIELD_INVALID\] Document \w+ \(global\), field contact_email: "Nisl pretium fusce"/,
    );
    expect(existsSync(join(run.dist, "index.html"))).toBe(false);
  }, 150_000);

  it("an unpriced qurban animal is listed with the run's other problems, not alone", async () => {
    const documents = await sampleWith((doc) => {
      if (doc.type === "calculate_page")
        return { ...doc, data: { ...doc.data, lunar_rate_percent: 20 } } as PrismicDocument;
      if (doc.type === "qurban" && doc.lang === "en-au") {
        const options = (doc.data.animal_options as Record<string, unknown>[]).map((o, i) =>
          i === 0 ? { ...o, option_price: null } : o,
        );
        return { ...doc, data: { ...doc.data, animal_options: options } } as PrismicDocument;
      }
      return badEmail(doc);
    });
    const qurban = documents.find((d) => d.type === "qurban" && d.lang === "en-au")!;
    const run = await buildFetched(documents);
    expect(run.code, run.output).toBe(1);
    expect(run.output).toMatch(new RegExp(`\\[CONTENT_PRICE_INVALID\\] Document ${qurban.id} \\(qurban, en-au\\)`));
    expect(run.output, run.output).toMatch(
      /\[DOCUMENT_INVALID\] Document \w+ \(calculate_page\): lunar_rate_percent is 20/,
    );
    expect(run.output).toMatch(/\[DOCUMENT_FIELD_INVALID\] Document \w+ \(global\), field contact_email/);
    expect(existsSync(join(run.dist, "index.html"))).toBe(false);
  }, 150_000);

  it("a contact e-mail that is not one is named and left out of every page", async () => {
    const run = await buildFetched(await sampleWith(badEmail));
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(
      /warn: .*\[DOCUMENT_FIELD_INVALID\] .*field contact_email: "Nisl pretium fusce" is not an e-mail address/,
    );
    for (const page of ["index.html", "about/index.html", "contact/index.html"]) {
      const html = await readFile(join(run.dist, page), "utf8").catch(() => "");
      expect(html, page).not.toContain("Nisl pretium fusce");
    }
    expect(await readFile(join(run.dist, "index.html"), "utf8")).toContain("1300 975 707");
  }, 150_000);
});
