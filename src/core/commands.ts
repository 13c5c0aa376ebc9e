/**
 * nzf-build's commands, declared once: the CLI defines a command for each and names them in its
 * errors (src/cli/main.ts), and the settings say which commands take them (src/core/options.ts).
 */
export const COMMANDS = ["build", "preview", "fetch", "webhook", "deploy", "api"] as const;

export type Verb = (typeof COMMANDS)[number];

/** A command as the settings see it: `watch` is `nzf-build --watch` (or `nzf-build build --watch`). */
export type CommandName = Verb | "watch";
