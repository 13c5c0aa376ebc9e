/**
 * A small levelled logger with a fixed set of labels (content, images, render, ...). It writes lines, never
 * progress bars, so CI logs and tests read the same as a terminal.
 */

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
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface ConsoleLoggerOptions {
  level?: LogLevel;
  /** Where lines go; defaults to stderr so stdout stays clean for machine-readable output. */
  write?: (line: string) => void;
}

export function createConsoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const threshold = ORDER[options.level ?? "info"];
  const write = options.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const log = (level: LogLevel) => (label: LogLabel, message: string) => {
    if (ORDER[level] < threshold) return;
    const prefix = level === "info" || level === "debug" ? "" : `${level}: `;
    write(`${label.padEnd(7)} ${prefix}${message}`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/** A logger that remembers lines: for tests, and for the webhook server's status page. */
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
