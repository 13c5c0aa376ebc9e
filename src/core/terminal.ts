/**
 * What the terminal gets: colour, and whether a progress line may be redrawn in place.
 *
 * Colour (escape codes from picocolors, a small, dependency-free and widely used library) is on
 * when the stream is a terminal (and TERM is not "dumb"), off in a pipe, a file or CI logs.
 * `NO_COLOR` (any non-empty value, no-color.org) turns it off; `FORCE_COLOR` turns it on even in a
 * pipe, or off with `0` or `false`, and wins over NO_COLOR as it does in Node and chalk. We decide
 * ourselves rather than take picocolors' own default, which looks at stdout (our lines go to
 * stderr), turns colour on whenever CI is set, and reads FORCE_COLOR=0 as "on".
 *
 * A progress line needs a real terminal: never in a pipe, whatever FORCE_COLOR says.
 */
import picocolors from "picocolors";

const { createColors } = picocolors;
export type Colours = ReturnType<typeof createColors>;

export interface TerminalStream {
  isTTY?: boolean;
}

export function colourEnabled(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !["0", "false"].includes(force.trim().toLowerCase());
  if ((env.NO_COLOR ?? "") !== "") return false;
  return Boolean(stream.isTTY) && env.TERM !== "dumb";
}

export function coloursFor(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): Colours {
  return createColors(colourEnabled(stream, env));
}

/** No colour: for text that goes anywhere but a terminal (a browser overlay, a status page, a test). */
export const plain: Colours = createColors(false);

/** Whether a line may be redrawn in place (`\r`): a terminal that understands it. */
export function progressEnabled(stream: TerminalStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && env.TERM !== "dumb" && (env.CI ?? "") === "";
}
