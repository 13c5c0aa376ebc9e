/**
 * An esbuild failure as the build reports it: every message with its file, line and column, under
 * the code of what failed. A syntax error in an island is the island's, whichever bundle met it
 * first: the templates import the islands to render them on the server, so the template bundle
 * used to report it as a template error.
 */
import { NzfError, type ErrorCode } from "../core/errors.js";

interface EsbuildMessage {
  text: string;
  location?: { file: string; line: number; column: number; lineText?: string } | null;
}

/** The first message's place, for the code frame under the error (esbuild's columns count from 0). */
function locationOf(messages: EsbuildMessage[]) {
  const at = messages.find((m) => m.location)?.location;
  if (!at) return {};
  return {
    location: {
      file: at.file,
      line: at.line,
      column: at.column + 1,
      ...(at.lineText !== undefined ? { lineText: at.lineText } : {}),
    },
  };
}

const ISLANDS_DIR = "src/client/islands/";

export function compileError(error: unknown, what: string, code: ErrorCode): NzfError {
  const messages = (error as { errors?: EsbuildMessage[] }).errors ?? [];
  // esbuild's columns count from 0; editors count from 1.
  const lines = messages.map(
    (m) => `${m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : ""}${m.text}`,
  );
  const detail = lines.join("\n  ") || String(error);
  // esbuild's own error repeats every message (columns from 0): kept as the cause only when it had none.
  const cause = messages.length ? undefined : error;
  const islands = [
    ...new Set(
      messages.flatMap((m) => (m.location?.file.replace(/\\/g, "/").startsWith(ISLANDS_DIR) ? [m.location.file] : [])),
    ),
  ];
  if (islands.length) {
    const names = islands.join(", ");
    return new NzfError(
      "ISLAND_COMPILE_FAILED",
      `The island${islands.length === 1 ? "" : "s"} ${names} did not compile:\n  ${detail}`,
      { subject: islands[0], cause, ...locationOf(messages) },
    );
  }
  const first = messages.find((m) => m.location)?.location?.file;
  return new NzfError(code, `${what} did not compile:\n  ${detail}`, {
    cause,
    ...(first ? { subject: first } : {}),
    ...locationOf(messages),
  });
}
