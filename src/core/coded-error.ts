/**
 * The error type of the whole tool, browser code included: a permanent code, a message that says
 * what happened, optionally the thing it is about and the error it wraps.
 *
 * Browser-safe, and small on purpose: the codes are shared (the type comes from the catalogue in
 * errors.ts and is erased when compiled), the hints are not. The catalogue of hints (S3, CloudFront,
 * Prismic…, about 7 KB) stays on the server: errors.ts hands it over when it loads, which every
 * server process does before it makes an error, and then an error's `hint` and `kind` are the
 * catalogue's, as they always were. Code that runs in a browser (the zakat calculation, the page
 * plan in the editor preview) imports this module, never errors.ts; test/architecture checks the
 * bundles for it.
 */
import type { CatalogueEntry, ErrorCode, ErrorKind } from "./errors.js";

export interface ErrorDetails {
  /** What the error is about: a document id, an output path, a URL, a config key. */
  subject?: string;
  /** The wrapped error. */
  cause?: unknown;
  /** Overrides the catalogue's hint when the situation allows a sharper one. */
  hint?: string;
  /** The source line at fault, for a code frame under the message (src/core/errors.ts formatError). */
  location?: ErrorLocation;
}

export interface ErrorLocation {
  /** Relative to the project folder (or absolute). */
  file: string;
  /** From 1. */
  line: number;
  /** From 1. */
  column: number;
  /** The line's text, when the tool that found the error gave it (esbuild does). */
  lineText?: string;
}

let catalogue: Readonly<Record<ErrorCode, CatalogueEntry>> | undefined;

/** Called by errors.ts as it loads: from then on errors carry the catalogue's hint and kind. */
export function setErrorCatalogue(entries: Readonly<Record<ErrorCode, CatalogueEntry>>): void {
  catalogue = entries;
}

/** Where there is no catalogue (a browser): what an error says to do. Nothing there shows it. */
const NO_CATALOGUE_HINT = "See this code in nzf-build's error catalogue (src/core/errors.ts).";

export class NzfError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly hint: string;
  readonly subject?: string;
  readonly location?: ErrorLocation;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "NzfError";
    this.code = code;
    const entry = catalogue?.[code];
    this.kind = entry?.kind ?? (code === "INTERNAL" ? "bug" : "input");
    this.hint = details.hint ?? entry?.hint ?? NO_CATALOGUE_HINT;
    this.subject = details.subject;
    if (details.location) this.location = details.location;
  }
}

/** Several failures of one stage, reported together ("collect, then fail"). */
export class NzfAggregateError extends NzfError {
  readonly errors: NzfError[];

  constructor(stage: string, errors: NzfError[]) {
    const codes = [...new Set(errors.map((e) => e.code))].join(", ");
    super(
      errors[0]?.code ?? "INTERNAL",
      `${errors.length} ${stage} failure${errors.length === 1 ? "" : "s"} (${codes})`,
      {
        hint:
          errors.length === 1 ? errors[0]!.hint : `Fix each failure listed above; they are independent of each other.`,
      },
    );
    this.name = "NzfAggregateError";
    this.errors = errors;
  }
}
