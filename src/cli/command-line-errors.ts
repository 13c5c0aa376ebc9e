/**
 * Mistakes on the command line in the house style (`[CONFIG_INVALID] message`, a hint), with the
 * nearest command or flag when there is one: commander's own errors (an unknown option, a missing
 * value) are turned into these, and words a command does not take are refused, not ignored.
 */
import { CommanderError, type Command } from "commander";
import { NzfError } from "../core/errors.js";

/** Letters to add, remove or change, or neighbours to swap ("prot" → "port"), to turn one word into the other. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest of `candidates` to `word`, when it is close enough to be what was meant. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    // Within two letters, and less than half the word: "-v" is near "-V" but not near "-h".
    // A short flag ("-v") only ever means the same letter in the other case ("-V").
    const limit = word.length <= 2 ? 0 : Math.min(2, Math.floor(Math.max(word.length, candidate.length) / 2));
    if (distance <= limit && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}

/** The subcommand a command line names (its first word that is one), or undefined for the root. */
export function commandOf(program: Command, args: readonly string[]): Command | undefined {
  return program.commands.find((c) => args.includes(c.name()));
}

/**
 * Every flag the program accepts, long and short: `command`'s own first (so a tie goes to the
 * command typed), then every command's, the hidden ones included.
 */
export function knownFlags(program: Command, command: Command = program): string[] {
  const flags = new Set<string>();
  const own = command.options.filter((o) => !o.hidden);
  for (const option of [...own, ...[program, ...program.commands].flatMap((c) => c.options)]) {
    if (option.long) flags.add(option.long);
    if (option.short) flags.add(option.short);
  }
  for (const flag of ["--help", "-h", "--version", "-V"]) flags.add(flag);
  return [...flags];
}

/** How a flag is shown in a suggestion: `-V (--version)` for a short one. */
function shown(flag: string, program: Command): string {
  if (flag.startsWith("--")) return flag;
  if (flag === "-h") return "-h (--help)";
  if (flag === "-V") return "-V (--version)";
  const option = [program, ...program.commands].flatMap((c) => c.options).find((o) => o.short === flag);
  return option?.long ? `${flag} (${option.long})` : flag;
}

const HELP_HINT = "nzf-build --help lists the commands and options; nzf-build help <command> those of one command.";

/**
 * Commander's error as the house's: null when it is not one (or when commander ended normally,
 * after printing help or the version: exit code 0).
 */
export function fromCommanderError(
  error: unknown,
  program: Command,
  args: readonly string[],
): NzfError | "done" | null {
  if (!(error instanceof CommanderError)) return null;
  if (error.exitCode === 0) return "done";
  const message = error.message.replace(/^error:\s*/, "");
  if (error.code === "commander.unknownOption") {
    const flag = /unknown option '([^']+)'/.exec(message)?.[1] ?? message;
    const name = flag.split("=")[0]!;
    const command = commandOf(program, args);
    const near = nearest(name, knownFlags(program, command));
    return new NzfError(
      "CONFIG_INVALID",
      `${name} is not an option of nzf-build${command ? ` ${command.name()}` : ""}${near ? `: did you mean ${shown(near, program)}?` : "."}`,
      { subject: name, hint: HELP_HINT },
    );
  }
  if (error.code === "commander.optionMissingArgument") {
    const flag = /option '([^']+)'/.exec(message)?.[1] ?? message;
    const [name, value] = flag.split(" ");
    return new NzfError("CONFIG_INVALID", `${name} needs a value (${flag}), and none was given.`, {
      subject: name,
      hint: `Write the value after the flag, e.g. ${name} ${value?.replace(/[<>]/g, "") ?? "value"}. ${HELP_HINT}`,
    });
  }
  return new NzfError("CONFIG_INVALID", `${message.charAt(0).toUpperCase()}${message.slice(1)}`, {
    hint: HELP_HINT,
  });
}

/** Words after a command that takes none: named, with the flag or command they may have meant. */
export function strayWords(commandLine: string, words: string[], program: Command, commands: string[]): NzfError {
  const word = words[0]!;
  const asFlag = nearest(
    `--${word.replace(/^-+/, "")}`,
    knownFlags(program).filter((f) => f.startsWith("--")),
  );
  const asCommand = commands.includes(word) ? word : undefined;
  const meant = asCommand
    ? `: commands are not combined; did you mean nzf-build ${asCommand}?`
    : asFlag
      ? `: did you mean ${asFlag}?`
      : ".";
  const list = words.map((w) => JSON.stringify(w)).join(", ");
  return new NzfError(
    "CONFIG_INVALID",
    `${commandLine} takes options only, and was given ${words.length === 1 ? "the word" : "the words"} ${list}${meant}`,
    { subject: word, hint: `Remove the extra words, or write them as options. ${HELP_HINT}` },
  );
}
