/**
 * One error type for the whole tool. Every error has a permanent code from the catalogue below,
 * a message that says what happened, a hint that says what to do, and optionally the thing it is
 * about (document id, output path, URL) and the error it wraps.
 *
 * `kind` separates "your input" (content, config, network: the user can fix it) from "our bug"
 * (an invariant broke: report it). The CLI prints `[CODE] message`, the hint and the cause chain.
 */

export type ErrorKind = "input" | "bug";

export interface ErrorDetails {
  /** What the error is about: a document id, an output path, a URL, a config key. */
  subject?: string;
  /** The wrapped error. */
  cause?: unknown;
  /** Overrides the catalogue's hint when the situation allows a sharper one. */
  hint?: string;
}

interface CatalogueEntry {
  kind: ErrorKind;
  hint: string;
}

/** The catalogue: codes never change meaning once released; add new ones at the end of a group. */
export const ERROR_CATALOGUE = {
  // Configuration (NZF1xx)
  CONFIG_INVALID: { kind: "input", hint: "Fix the option or environment variable named in the message and run again." },
  REPOSITORY_NAME_INVALID: {
    kind: "input",
    hint: "A Prismic repository name has at least 4 characters, letters, digits or hyphens, and starts and ends with a letter or digit.",
  },
  // Content fetch (NZF2xx)
  PRISMIC_PARSING_ERROR: { kind: "input", hint: "The Prismic API rejected the query. Check the message; if it persists, report it." },
  PRISMIC_FORBIDDEN: {
    kind: "input",
    hint: "The repository is private or the token is wrong: set PRISMIC_ACCESS_TOKEN to a valid access token (Prismic: Settings > API & Security).",
  },
  PRISMIC_REPOSITORY_NOT_FOUND: {
    kind: "input",
    hint: "Check --repository (or PRISMIC_REPOSITORY) and PRISMIC_ENDPOINT: the repository does not exist there.",
  },
  PRISMIC_INVALID_RESPONSE: { kind: "input", hint: "The Prismic API answered with an unexpected status. Try again later; the last good content is kept." },
  PRISMIC_UNAVAILABLE: {
    kind: "input",
    hint: "The Prismic API could not be reached after several attempts. Check the network and try again; the last good content is kept.",
  },
  PRISMIC_NO_DOCUMENTS: { kind: "input", hint: "No documents were returned. Publish content in Prismic, or check the repository name." },
  PRISMIC_REF_NOT_FOUND: { kind: "input", hint: "Ref could not be found. The content changed while fetching; run the fetch again." },
  // Snapshot (NZF3xx)
  SNAPSHOT_MISSING: { kind: "input", hint: "Run `nzf-build --fetch` to download the content, or build the bundled sample with `nzf-build --sample`." },
  SNAPSHOT_CORRUPT: { kind: "input", hint: "The snapshot file is not valid. Run `nzf-build --fetch` to download it again." },
  SNAPSHOT_CHANGED: { kind: "input", hint: "Another process (a fetch?) replaced the snapshot while this build read it. Run the build again once it has finished." },
  // Content graph and routes (NZF4xx)
  ROUTE_COLLISION: { kind: "input", hint: "Two documents would be published at the same URL. Change the uid of one of them in Prismic." },
  DOCUMENT_INVALID: { kind: "input", hint: "Fix the document in Prismic (or the sample snapshot) and build again." },
  // Images (NZF5xx)
  IMAGE_METADATA: { kind: "input", hint: "The image could not be read. Replace it in Prismic with a valid JPEG, PNG, WebP, GIF or SVG file." },
  IMAGE_DIMENSIONS: { kind: "input", hint: "Image dimensions must be positive. Replace the image in Prismic." },
  IMAGE_DOWNLOAD: { kind: "input", hint: "The image could not be downloaded. Check the network and that the image still exists in Prismic." },
  // Render (NZF6xx)
  RENDER_FAILED: { kind: "input", hint: "The template threw while rendering this page. Check the document's fields named in the cause." },
  TEMPLATE_BUNDLE_FAILED: { kind: "input", hint: "The templates do not compile. Fix the error shown and save again." },
  ISLAND_BUNDLE_FAILED: { kind: "input", hint: "The browser code in src/client does not compile. Fix the error shown and save again." },
  ISLAND_PROPS_INVALID: { kind: "bug", hint: "Island props must be plain JSON data. This is a bug in the template: report it." },
  // Publish (NZF7xx)
  PUBLISH_FAILED: { kind: "input", hint: "The new site could not be moved into place; the previous site is untouched. Check disk space and permissions." },
  // Watch mode (NZF8xx)
  WATCH_PORT_UNAVAILABLE: { kind: "input", hint: "Stop what uses those ports, or choose another port with --port (0 picks any free port)." },
  CLI_COMPILE_FAILED: {
    kind: "input",
    hint: "nzf-build's own code in src/ does not compile. Fix the error shown and save again; watch mode keeps running the previous nzf-build until then.",
  },
  // Invariants (NZF9xx)
  INTERNAL: { kind: "bug", hint: "This is a bug in nzf-build. Run again with --verbose and report the output." },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class NzfError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly hint: string;
  readonly subject?: string;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "NzfError";
    this.code = code;
    const entry: CatalogueEntry = ERROR_CATALOGUE[code];
    this.kind = entry.kind;
    this.hint = details.hint ?? entry.hint;
    this.subject = details.subject;
  }
}

/** Several failures of one stage, reported together ("collect, then fail"). */
export class NzfAggregateError extends NzfError {
  readonly errors: NzfError[];

  constructor(stage: string, errors: NzfError[]) {
    const codes = [...new Set(errors.map((e) => e.code))].join(", ");
    super(errors[0]?.code ?? "INTERNAL", `${errors.length} ${stage} failure${errors.length === 1 ? "" : "s"} (${codes})`, {
      hint: errors.length === 1 ? errors[0]!.hint : `Fix each failure listed below; they are independent of each other.`,
    });
    this.name = "NzfAggregateError";
    this.errors = errors;
  }
}

/** Formats an error for a person: `[CODE] message (subject)`, the hint, the cause chain; stacks only when verbose. */
export function formatError(error: unknown, verbose = false): string {
  const lines: string[] = [];
  const describe = (e: unknown, indent: string): void => {
    if (e instanceof NzfAggregateError) {
      lines.push(`${indent}[${e.code}] ${e.message}`);
      for (const inner of e.errors) describe(inner, indent + "  ");
      if (e.errors.length > 1) lines.push(`${indent}  hint: ${e.hint}`);
      return;
    }
    if (e instanceof NzfError) {
      lines.push(`${indent}[${e.code}] ${e.message}${e.subject ? ` (${e.subject})` : ""}`);
      lines.push(`${indent}  hint: ${e.hint}`);
    } else if (e instanceof Error) {
      lines.push(`${indent}${e.name}: ${e.message}`);
    } else {
      lines.push(`${indent}${String(e)}`);
    }
    if (verbose && e instanceof Error && e.stack) {
      lines.push(...e.stack.split("\n").slice(1).map((l) => `${indent}  ${l.trim()}`));
    }
    const cause = e instanceof Error ? e.cause : undefined;
    if (cause !== undefined) {
      lines.push(`${indent}  caused by:`);
      describe(cause, indent + "    ");
    }
  };
  describe(error, "");
  return lines.join("\n");
}
