/**
 * The error catalogue: every error of the tool has a permanent code from the list below, a message
 * that says what happened, a hint that says what to do, and optionally the thing it is about
 * (document id, output path, URL) and the error it wraps. The error type is in coded-error.ts,
 * which browser code imports without this file: the hints below are the server's alone.
 *
 * `kind` separates "your input" (content, config, network: the user can fix it) from "our bug"
 * (an invariant broke: report it). The CLI prints `[CODE] message`, the hint and the cause chain.
 */
import { NzfAggregateError, NzfError, setErrorCatalogue } from "./coded-error.js";

export { NzfAggregateError, NzfError, type ErrorDetails, type ErrorLocation } from "./coded-error.js";
import type { ErrorLocation } from "./coded-error.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { plain, type Colours } from "./terminal.js";

export type ErrorKind = "input" | "bug";

export interface CatalogueEntry {
  kind: ErrorKind;
  hint: string;
}

/** The catalogue: codes never change meaning once released; add new ones at the end of a group. */
export const ERROR_CATALOGUE = {
  // Configuration (NZF1xx)
  CONFIG_INVALID: { kind: "input", hint: "Fix the option or environment variable named in the message and run again." },
  SETTINGS_MISSING: {
    kind: "input",
    hint: "Set the variables named (docs/configuration.md, Payments and Accounts) in the build's environment. If the site is meant to ship without them, say so: --allow-missing-settings or NZF_ALLOW_MISSING_SETTINGS=1.",
  },
  REPOSITORY_NAME_INVALID: {
    kind: "input",
    hint: "A Prismic repository name has at least 4 characters, letters, digits or hyphens, and starts and ends with a letter or digit.",
  },
  // Content fetch (NZF2xx)
  PRISMIC_PARSING_ERROR: {
    kind: "input",
    hint: "The Prismic API rejected the query. Check the message; if it persists, report it.",
  },
  PRISMIC_FORBIDDEN: {
    kind: "input",
    hint: "The repository is private or the token is wrong: set PRISMIC_ACCESS_TOKEN to a valid access token (Prismic: Settings > API & Security).",
  },
  PRISMIC_REPOSITORY_NOT_FOUND: {
    kind: "input",
    hint: "Check --repository (or PRISMIC_REPOSITORY) and PRISMIC_ENDPOINT: the repository does not exist there.",
  },
  PRISMIC_INVALID_RESPONSE: {
    kind: "input",
    hint: "The Prismic API answered with an unexpected status. Try again later; the last good content is kept.",
  },
  PRISMIC_UNAVAILABLE: {
    kind: "input",
    hint: "The Prismic API could not be reached after several attempts. Check the network and try again; the last good content is kept.",
  },
  PRISMIC_NO_DOCUMENTS: {
    kind: "input",
    hint: "No documents were returned. Publish content in Prismic, or check the repository name.",
  },
  PRISMIC_REF_NOT_FOUND: {
    kind: "input",
    hint: "Ref could not be found. The content changed while fetching; run the fetch again.",
  },
  PRISMIC_MALFORMED_ANSWER: {
    kind: "input",
    hint: "The Prismic API answered with data that is not a valid document list; nothing was written and the last good snapshot is kept. Fetch again later; if it persists, check PRISMIC_ENDPOINT (a proxy or captive portal answering instead of Prismic?).",
  },
  // Snapshot (NZF3xx)
  SNAPSHOT_MISSING: {
    kind: "input",
    hint: "Run `nzf-build --fetch` to download the content, or build the bundled sample with `nzf-build --sample`.",
  },
  SNAPSHOT_CORRUPT: {
    kind: "input",
    hint: "The snapshot file is not valid. Run `nzf-build --fetch` to download it again.",
  },
  SNAPSHOT_CHANGED: {
    kind: "input",
    hint: "Another process (a fetch?) replaced the snapshot while this build read it. Run the build again once it has finished.",
  },
  SNAPSHOT_INCOMPLETE: {
    kind: "input",
    hint: "The content lacks what every page needs (the global and home_page documents), so it was not used: the last good snapshot and the last good dist/ are kept. Publish those documents in Prismic, then run `nzf-build --fetch`.",
  },
  // Content graph and routes (NZF4xx)
  ROUTE_COLLISION: {
    kind: "input",
    hint: "Two documents would be published at the same URL. Change the uid of one of them in Prismic.",
  },
  DOCUMENT_INVALID: { kind: "input", hint: "Fix the document in Prismic (or the sample snapshot) and build again." },
  CONTENT_PRICE_INVALID: {
    kind: "input",
    hint: "A donation page shows a price that cannot be charged (none, zero or less, fractions of a cent, an option without its own code), so nothing was published. Fix the field named in Prismic and publish it, then build again.",
  },
  // Content warnings: the page is still built (with the fallback named) or left out, and the build goes on.
  DOCUMENT_FIELD_MISSING: {
    kind: "input",
    hint: "Fill in the field named in Prismic and publish the document again; until then the page shows the fallback named.",
  },
  DOCUMENT_UID_MISSING: {
    kind: "input",
    hint: "Give the document a UID in Prismic and publish it again: a document of this type is published at an address made from its UID.",
  },
  DOCUMENT_FIELD_INVALID: {
    kind: "input",
    hint: "Correct the field named in Prismic (its value is shown) and publish the document again; until then the pages leave that value out.",
  },
  UNSAFE_URL: {
    kind: "input",
    hint: "Replace the link in Prismic with an http(s), mailto: or tel: address (or a link to a document). javascript:, vbscript: and non-image data: URLs are never published.",
  },
  // Images (NZF5xx)
  IMAGE_METADATA: {
    kind: "input",
    hint: "The image could not be read. Replace it in Prismic with a valid JPEG, PNG, WebP, GIF or SVG file.",
  },
  IMAGE_DIMENSIONS: { kind: "input", hint: "Image dimensions must be positive. Replace the image in Prismic." },
  IMAGE_DOWNLOAD: {
    kind: "input",
    hint: "The image could not be downloaded. Check the network and that the image still exists in Prismic.",
  },
  IMAGE_REFUSED: {
    kind: "input",
    hint: "The picture was left out: images are taken only from the repository's Prismic image CDN (https://images.prismic.io/<repository>/…) and the hosts in NZF_IMAGE_HOSTS, never from a private, loopback or link-local address, and a file name may not leave the local images folder. Upload the image to Prismic's media library and choose it in the field named.",
  },
  IMAGE_TOO_LARGE: {
    kind: "input",
    hint: "Replace the image in Prismic with a smaller one: the build takes images of at most 25 MB and 50 megapixels (8000 × 6000 is 48), and a web page needs no more than 2000 px across.",
  },
  IMAGE_TIMEOUT: {
    kind: "input",
    hint: "The image server was too slow (the build gives an image 30 s in all, and drops a download slower than 32 KB/s once 5 s have passed). Build again; if it persists, replace the image in Prismic.",
  },
  // Render (NZF6xx)
  RENDER_FAILED: {
    kind: "input",
    hint: "A template threw while rendering this page: fix the template at the file and line named (a template must render any content Prismic allows, empty fields included) and build again.",
  },
  RENDER_WORKER_FAILED: {
    kind: "bug",
    hint: "A render thread failed (the message says how); the build did that work in its own thread instead, so the site is the same, only slower. If it happens again, report it with the message.",
  },
  TEMPLATE_BUNDLE_FAILED: { kind: "input", hint: "The templates do not compile. Fix the error shown and save again." },
  ISLAND_BUNDLE_FAILED: {
    kind: "input",
    hint: "The browser code in src/client does not compile. Fix the error shown and save again.",
  },
  ISLAND_PROPS_INVALID: {
    kind: "bug",
    hint: "Island props must be plain JSON data. This is a bug in the template: report it.",
  },
  ISLAND_COMPILE_FAILED: {
    kind: "input",
    hint: "An island in src/client/islands does not compile. Fix the file and line shown and save again.",
  },
  STYLESHEET_INVALID: {
    kind: "input",
    hint: "Fix the stylesheet at the file and line shown. Outside CI these are printed as warnings; with CI set they stop the build, so a broken stylesheet is never deployed.",
  },
  // Publish (NZF7xx)
  PUBLISH_FAILED: {
    kind: "input",
    hint: "The new site could not be moved into place; the previous site is untouched. Check disk space and permissions.",
  },
  OUTPUT_LOCKED: {
    kind: "input",
    hint: "Another build is writing this output folder. Wait for it to finish (or stop it), then run again; a lock left by a build that died is taken over by itself.",
  },
  OUTPUT_NOT_OURS: {
    kind: "input",
    hint: "Choose a new or empty folder with --out (nzf-build makes it a link to the published version), or move the files there elsewhere first.",
  },
  OUTPUT_WRITE_FAILED: {
    kind: "input",
    hint: "The disk is full, read-only or failing, or the folder is not writable (the code in the message: ENOSPC, EROFS, EACCES, EIO...). The previous site is still published and the unfinished one was removed: free space or fix the permissions, then build again (the webhook server builds on the next webhook).",
  },
  // Build cache (NZF8xx)
  CACHE_UNUSABLE: {
    kind: "input",
    hint: "The build cache (.nzf-cache/ in the project) could not be used. It holds nothing that cannot be made again: delete it (rm -rf .nzf-cache) and check the disk has space and the folder is writable. The content and the last good site are not affected.",
  },
  // Watch mode (NZF8xx)
  WATCH_PORT_UNAVAILABLE: {
    kind: "input",
    hint: "Stop what uses those ports, or choose another port with --port (0 picks any free port).",
  },
  PREVIEW_SITE_MISSING: {
    kind: "input",
    hint: "There is no published site to preview: build it first (nzf-build), with the same --out.",
  },
  CLI_COMPILE_FAILED: {
    kind: "input",
    hint: "nzf-build's own code in src/ does not compile. Fix the error shown and save again; watch mode keeps running the previous nzf-build until then.",
  },
  // Deploy to S3 and CloudFront (NZF10xx), see docs/deploy.md
  DEPLOY_SITE_MISSING: {
    kind: "input",
    hint: "There is no published site to deploy: build it first (nzf-build, or nzf-build --deploy to build and deploy), with the same --out.",
  },
  DEPLOY_BUCKET_UNREADABLE: {
    kind: "input",
    hint: "Check the bucket name (NZF_S3_BUCKET), its region (AWS_REGION) and the credentials (the standard AWS chain: AWS_PROFILE, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or an instance role) with the IAM policy of docs/deploy.md. Nothing was changed.",
  },
  DEPLOY_UPLOAD_FAILED: {
    kind: "input",
    hint: "Run nzf-build deploy again: it uploads only what the bucket still lacks. Until then the bucket serves the previous site (pages not yet replaced, with all of their files); nothing was deleted or invalidated.",
  },
  DEPLOY_INVALIDATION_FAILED: {
    kind: "input",
    hint: "The bucket has the new site; CloudFront may serve the old copies of the paths named until they expire. Invalidate them by hand (aws cloudfront create-invalidation --distribution-id <id> --paths <paths>) and check the distribution id and the cloudfront:CreateInvalidation permission.",
  },
  DEPLOY_TIMED_OUT: {
    kind: "input",
    hint: "S3 or CloudFront did not answer in time, so the deploy was abandoned. Check the network and the S3 endpoint (NZF_S3_ENDPOINT, when set), then run nzf-build deploy again (the webhook server retries after the next build): it uploads only what the bucket still lacks.",
  },
  // The payments API service (NZF11xx), see docs/payments-api.md and src/api/README.md
  API_DATABASE_FAILED: {
    kind: "input",
    hint: "Check DATABASE_URL (a postgres:// URL the service can reach) or the data folder (--data-dir: writable, not used by another process); the message names the step that failed.",
  },
  API_CONFIG_INVALID: {
    kind: "input",
    hint: "Set STRIPE_SECRET_KEY (sk_test_… or sk_live_…) and STRIPE_WEBHOOK_SECRET (whsec_…) in the service's environment (or its Secrets Manager secret), and STRIPE_API_BASE only to an http(s) origin.",
  },
  API_UPDATE_INVALID: {
    kind: "input",
    hint: "Fix the update named in the message (an id of lower-case letters, digits and dashes; a one-line subject and heading; at least one paragraph) and send it again: subscribers who already have it are not sent it twice.",
  },
  API_SCHEDULE_RELEASED: {
    kind: "input",
    hint: "The plan is left as it was: cancel that subscription in Stripe after the plan's last payment (the donor's account shows its end date), or cancel the plan in the donor's account; the service will not guess.",
  },
  API_PLAN_PAUSED_NOT_STARTED: {
    kind: "input",
    hint: "An older version of the service recorded this pause without telling Stripe. Nothing more needs doing at Stripe: the plan is paused there now, as the account showed. If Stripe charged it while it was shown paused, tell the donor (the reference names the plan; those payments are in their history) and refund any they did not want.",
  },
  // Invariants (NZF9xx)
  INTERNAL: { kind: "bug", hint: "This is a bug in nzf-build. Run again with --verbose and report the output." },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

setErrorCatalogue(ERROR_CATALOGUE);

/**
 * Formats an error for a person: `[CODE] message (subject)`, the hint, the cause chain; stacks only
 * when verbose. `colours` (src/core/terminal.ts) for a terminal; plain text by default.
 */
export function formatError(
  error: unknown,
  verbose = false,
  colours: Colours = plain,
  root: string = process.cwd(),
): string {
  const c = colours;
  const lines: string[] = [];
  const code = (e: NzfError) => c.red(c.bold(`[${e.code}]`));
  const hint = (indent: string, text: string) => `${indent}  ${c.cyan("hint:")} ${text}`;
  const describe = (e: unknown, indent: string): void => {
    if (e instanceof NzfAggregateError) {
      lines.push(`${indent}${code(e)} ${e.message}`);
      for (const inner of e.errors) describe(inner, indent + "  ");
      if (e.errors.length > 1) lines.push(hint(indent, e.hint));
      return;
    }
    if (e instanceof NzfError) {
      lines.push(`${indent}${code(e)} ${e.message}${e.subject ? c.dim(` (${e.subject})`) : ""}`);
      if (e.location) lines.push(...codeFrame(e.location, root, c, indent + "  "));
      lines.push(hint(indent, e.hint));
    } else if (e instanceof Error) {
      lines.push(`${indent}${c.red(`${e.name}:`)} ${e.message}`);
    } else {
      lines.push(`${indent}${String(e)}`);
    }
    if (verbose && e instanceof Error && e.stack) {
      lines.push(
        ...e.stack
          .split("\n")
          .slice(1)
          .map((l) => c.dim(`${indent}  ${l.trim()}`)),
      );
    }
    const cause = e instanceof Error ? e.cause : undefined;
    if (cause !== undefined) {
      lines.push(c.dim(`${indent}  caused by:`));
      describe(cause, indent + "    ");
    }
  };
  describe(error, "");
  return lines.join("\n");
}

/** Lines shown around the one at fault. */
const FRAME_BEFORE = 2;
const FRAME_AFTER = 1;

/**
 * The source around an error's line, with a caret under its column, as Vite and Astro show it:
 *
 *     templates/pages/home.tsx:12:7
 *       11 |   const items = data.items;
 *     > 12 |   return items.map(…);
 *          |         ^
 *
 * From the file when it can be read (relative to `root`), else the line's text the error carries;
 * nothing when neither is there.
 */
export function codeFrame(location: ErrorLocation, root: string, c: Colours = plain, indent = ""): string[] {
  let source: string[] | undefined;
  try {
    source = readFileSync(resolve(root, location.file), "utf8").split(/\r?\n/);
  } catch {
    source = undefined;
  }
  const at = location.line;
  const wanted = source?.[at - 1];
  // The file changed since (or is not there): the line the tool saw, alone.
  const rows: [number, string][] =
    source && wanted !== undefined && (location.lineText === undefined || wanted === location.lineText)
      ? source
          .slice(Math.max(0, at - 1 - FRAME_BEFORE), Math.min(source.length, at + FRAME_AFTER))
          .map((text, i) => [Math.max(1, at - FRAME_BEFORE) + i, text])
      : location.lineText !== undefined
        ? [[at, location.lineText]]
        : [];
  if (!rows.length) return [];
  const width = String(rows.at(-1)![0]).length;
  const out = [`${indent}${c.cyan(`${location.file}:${at}:${location.column}`)}`];
  for (const [number, text] of rows) {
    const gutter = `${String(number).padStart(width)} |`;
    const shown = text.replace(/\t/g, "  ");
    out.push(
      number === at ? `${indent}${c.red(">")} ${c.dim(gutter)} ${shown}` : `${indent}  ${c.dim(gutter)} ${shown}`,
    );
    if (number === at) {
      // Tabs were widened above; the caret follows them.
      const before = text.slice(0, Math.max(0, location.column - 1)).replace(/\t/g, "  ");
      out.push(`${indent}  ${c.dim(`${" ".repeat(width)} |`)} ${" ".repeat(before.length)}${c.red(c.bold("^"))}`);
    }
  }
  return out;
}
