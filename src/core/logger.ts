/**
 * A small levelled logger with a fixed set of labels (content, images, render, ...). It writes
 * lines; on a terminal it colours them (src/core/terminal.ts) and may keep one progress line at the
 * bottom, redrawn in place and cleared before the next line, so CI logs and tests (a pipe) read
 * plain lines only.
 */
import { plain, type Colours } from "./terminal.js";

export type LogLabel =
  | "build"
  | "api"
  | "content"
  | "images"
  | "styles"
  | "render"
  | "islands"
  | "sw"
  | "publish"
  | "watch"
  | "preview"
  | "webhook"
  | "bench"
  | "deploy";
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(label: LogLabel, message: string): void;
  info(label: LogLabel, message: string): void;
  warn(label: LogLabel, message: string): void;
  error(label: LogLabel, message: string): void;
  /**
   * A long stage's progress ("12 of 29 images"), shown on a terminal as one line redrawn in place;
   * `null` clears it. Loggers that only write lines leave it out.
   */
  progress?(label: LogLabel, message: string | null): void;
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface ConsoleLoggerOptions {
  level?: LogLevel;
  /** Colours for the labels, levels and error codes; none by default. */
  colours?: Colours;
  /** Writes raw text (no newline) for the progress line; without it there is none. */
  progress?: (text: string) => void;
  /** The terminal's width, to keep the progress line on one line. */
  columns?: () => number | undefined;
}

/** Redraw the progress line at most this often: a terminal is slow, and nobody reads faster. */
const PROGRESS_INTERVAL_MS = 100;
const CLEAR_LINE = "\r\x1b[2K";

export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const threshold = ORDER[options.level ?? "info"];
  const c = options.colours ?? plain;
  // Lines go to stderr, so stdout stays clean for machine-readable output.
  const rawWrite = (line: string) => process.stderr.write(line + "\n");
  const drawProgress = options.progress;
  let shown: string | null = null;
  let lastDrawn = 0;
  const clearProgress = () => {
    if (shown === null || !drawProgress) return;
    drawProgress(CLEAR_LINE);
    shown = null;
  };
  const write = (line: string) => {
    clearProgress();
    rawWrite(line);
  };
  const levelText: Record<LogLevel, string> = {
    debug: "",
    info: "",
    warn: c.yellow("warn: "),
    error: c.red(c.bold("error: ")),
  };
  const log = (level: LogLevel) => (label: LogLabel, message: string) => {
    if (ORDER[level] < threshold) return;
    // The code of a coded message stands out: "[IMAGE_REFUSED] …".
    const text = message.replace(/^\[([A-Z][A-Z0-9_]+)\]/, (code) =>
      level === "error" ? c.red(c.bold(code)) : level === "warn" ? c.yellow(c.bold(code)) : code,
    );
    write(
      `${(level === "debug" ? c.dim : c.cyan)(label.padEnd(7))} ${levelText[level]}${level === "debug" ? c.dim(text) : text}`,
    );
  };
  const logger: Logger = { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
  if (drawProgress) {
    logger.progress = (label, message) => {
      if (message === null) return clearProgress();
      const now = performance.now();
      if (shown !== null && now - lastDrawn < PROGRESS_INTERVAL_MS) return;
      lastDrawn = now;
      // A terminal that does not say its width (0) gets 80 columns.
      const width = Math.max(20, (options.columns?.() || 80) - 1);
      const line = `${label.padEnd(7)} ${message}`;
      const cut = line.length > width ? `${line.slice(0, width - 1)}…` : line;
      shown = cut;
      drawProgress(`${CLEAR_LINE}${c.cyan(cut.slice(0, 7))}${c.dim(cut.slice(7))}`);
    };
  }
  return logger;
}

/** A logger that remembers lines, which the webhook server's status page shows. */
export interface MemoryLogger extends Logger {
  lines: { level: LogLevel; label: LogLabel; message: string }[];
}

export function createMemoryLogger(): MemoryLogger {
  const lines: MemoryLogger["lines"] = [];
  const log = (level: LogLevel) => (label: LogLabel, message: string) => void lines.push({ level, label, message });
  return { lines, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
