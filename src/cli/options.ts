/**
 * Commander options made from the declaration in src/core/options.ts. Commander only parses the
 * flags: it is given no defaults and no environment variables, so every value it holds was typed
 * on the command line, and src/cli/settings.ts alone decides what applies.
 */
import { Option, type Command } from "commander";
import { flagName, OPTIONS, type CommandName, type OptionSpec } from "../core/options.js";

/** Help text: the declaration's, with its variables and default. */
export function helpText(spec: OptionSpec): string {
  const extra: string[] = [];
  if (spec.env?.length) extra.push(`env: ${spec.env.join(" or ")}`);
  const shown = spec.defaultText ?? spec.default;
  if (shown !== undefined && spec.flag?.includes("<")) extra.push(`default: ${shown}`);
  return extra.length ? `${spec.help} (${extra.join("; ")})` : spec.help;
}

/**
 * Declares the flags of `commands` on `command` (one option per flag; the first declaration's help
 * wins). With `acceptOthersHidden`, every other flag is accepted too, out of the help: the root
 * command reads flags written before a subcommand (`nzf-build --port 9123 webhook`), and a flag of
 * another command, before or after the subcommand, reaches the settings, which say whose it is
 * (`--out does not apply to nzf-build fetch`) rather than commander's "unknown option".
 */
export function addDeclaredOptions(
  command: Command,
  commands: CommandName[],
  { acceptOthersHidden = false } = {},
): Command {
  const seen = new Set<string>();
  const specs = OPTIONS as readonly OptionSpec[];
  const mine = specs.filter((s) => s.commands.some((c) => commands.includes(c)));
  const others = acceptOthersHidden ? specs.filter((s) => !mine.includes(s)) : [];
  for (const spec of [...mine, ...others]) {
    const name = flagName(spec);
    if (!spec.flag || !name || seen.has(name)) continue;
    seen.add(name);
    const option = new Option(spec.flag, helpText(spec));
    if (!mine.includes(spec)) option.hideHelp();
    command.addOption(option);
  }
  return command;
}

/**
 * The flags typed on the command line, before the subcommand (read by the root command) and after
 * it; after wins, as the later of two flags does.
 */
export function givenFlags(program: Command, command: Command): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const from of program === command ? [program] : [program, command]) {
    for (const [key, value] of Object.entries(from.opts())) {
      if (value !== undefined && from.getOptionValueSource(key) === "cli") flags[key] = value;
    }
  }
  return flags;
}

/** The settings of `commands` read from the environment alone, for the end of the help. */
export function environmentHelp(commands: CommandName[]): string {
  const specs = (OPTIONS as readonly OptionSpec[]).filter(
    (s) => !s.flag && s.env && s.commands.some((c) => commands.includes(c)),
  );
  if (specs.length === 0) return "";
  const width = Math.max(...specs.map((s) => s.env!.join(", ").length));
  const lines = specs.map(
    (s) => `  ${s.env!.join(", ").padEnd(width)}  ${s.help}${s.default ? ` (default: ${s.default})` : ""}`,
  );
  return `\nEnvironment variables (flags set above also have one; see docs/configuration.md):\n${lines.join("\n")}`;
}
