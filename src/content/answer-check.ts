/**
 * Checks what the Prismic API answered before any of it can reach the snapshot. An answer of 200
 * whose body is not the documented shape (`results` a string, a document without an id, page
 * numbers that do not add up) once replaced the last good snapshot with garbage, and every later
 * build failed until editors published again. Each check names the page and the field, so the
 * error says what was wrong; the fetch then fails and the snapshot stays as it was.
 *
 * The shapes checked are the v2 Document API's: the repository root (refs, languages) and a page of
 * `documents/search` (page, total_pages, results of documents with id, type, lang and a data object).
 */
import { NzfError } from "../core/errors.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const describe = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "string"
        ? `a string (${JSON.stringify(value.slice(0, 40))})`
        : typeof value;

function malformed(message: string, subject: string): NzfError {
  return new NzfError("PRISMIC_MALFORMED_ANSWER", message, { subject });
}

/** The repository root: refs is a list, exactly one of them the master ref with a non-empty ref string; languages a list of { id }. */
export function checkRepositoryAnswer(root: unknown, endpoint: string): void {
  const where = `The Prismic repository root at ${endpoint}`;
  if (!isObject(root)) throw malformed(`${where} is ${describe(root)}, not an object.`, endpoint);
  if (!Array.isArray(root.refs)) throw malformed(`${where} has "refs" ${describe(root.refs)}, not a list.`, endpoint);
  root.refs.forEach((ref, i) => {
    if (!isObject(ref) || typeof ref.ref !== "string" || ref.ref === "")
      throw malformed(`${where} has refs[${i}] without a "ref" string.`, endpoint);
  });
  const masters = root.refs.filter((ref) => isObject(ref) && ref.isMasterRef === true).length;
  if (masters > 1) throw malformed(`${where} lists ${masters} master refs.`, endpoint);
  if (root.languages !== undefined) {
    if (!Array.isArray(root.languages))
      throw malformed(`${where} has "languages" ${describe(root.languages)}, not a list.`, endpoint);
    root.languages.forEach((language, i) => {
      if (!isObject(language) || typeof language.id !== "string" || language.id === "")
        throw malformed(`${where} has languages[${i}] without an "id" string.`, endpoint);
    });
  }
}

export interface PageExpectation {
  /** The page number asked for (1-based). */
  page: number;
  pageSize: number;
  /** total_pages of the first page of this query, which every later page must repeat. */
  totalPages?: number;
  /** What the query was, for the message ("page 2 of the documents search"). */
  label: string;
  subject: string;
}

/** One page of a documents search. Returns its total_pages. */
export function checkSearchPage(answer: unknown, expected: PageExpectation): number {
  const where = `${expected.label}: page ${expected.page}`;
  const fail = (message: string) =>
    malformed(`The Prismic API sent a malformed answer for ${where}: ${message}`, expected.subject);
  if (!isObject(answer)) throw fail(`the answer is ${describe(answer)}, not an object.`);
  if (!Array.isArray(answer.results)) throw fail(`"results" is ${describe(answer.results)}, not a list of documents.`);
  if (answer.page !== expected.page) throw fail(`"page" is ${JSON.stringify(answer.page)}, expected ${expected.page}.`);
  const totalPages = answer.total_pages;
  if (typeof totalPages !== "number" || !Number.isInteger(totalPages) || totalPages < 0)
    throw fail(`"total_pages" is ${JSON.stringify(totalPages)}, not a whole number.`);
  if (expected.totalPages !== undefined && totalPages !== expected.totalPages) {
    throw fail(
      `"total_pages" is ${totalPages}, but page 1 said ${expected.totalPages} (the pages do not belong to one answer).`,
    );
  }
  const total = answer.total_results_size;
  if (typeof total === "number" && Math.ceil(total / expected.pageSize) !== totalPages) {
    throw fail(
      `"total_pages" is ${totalPages}, but ${total} documents in pages of ${expected.pageSize} make ${Math.ceil(total / expected.pageSize)}.`,
    );
  }
  if (answer.results.length > expected.pageSize)
    throw fail(`${answer.results.length} results in a page of ${expected.pageSize}.`);
  if (expected.page < totalPages && answer.results.length !== expected.pageSize) {
    throw fail(`${answer.results.length} results on a page before the last (expected ${expected.pageSize}).`);
  }
  for (const [i, document] of answer.results.entries()) checkDocument(document, `results[${i}]`, fail);
  return totalPages;
}

function checkDocument(document: unknown, at: string, fail: (message: string) => NzfError): void {
  if (!isObject(document)) throw fail(`${at} is ${describe(document)}, not a document.`);
  const named = typeof document.id === "string" && document.id !== "" ? `${at} (document ${document.id})` : at;
  for (const field of ["id", "type", "lang"] as const) {
    const value = document[field];
    if (typeof value !== "string" || value === "")
      throw fail(`${named} has "${field}" ${describe(value)}, not a non-empty string.`);
  }
  if (!isObject(document.data)) throw fail(`${named} has "data" ${describe(document.data)}, not an object.`);
}
