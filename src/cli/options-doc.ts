/**
 * The settings tables of docs/configuration.md and README.md, made from the declaration in
 * src/core/options.ts. test/cli/options-docs.test.ts fails when a table in the docs differs from
 * these (and rewrites them with UPDATE_OPTIONS_DOCS=1), so the docs cannot drift from the code.
 */
import { COMMANDS } from "../core/commands.js";
import { flagName, OPTIONS, type CommandName, type OptionGroup, type OptionSpec } from "../core/options.js";

/** The commands in the docs' order: a build, watch mode (a build's flag), then the others. */
const ALL: CommandName[] = ["build", "watch", ...COMMANDS.filter((c) => c !== "build")];
const COMMAND_LABEL: Record<CommandName, string> = {
  build: "build",
  watch: "`--watch`",
  preview: "`preview`",
  fetch: "`fetch`",
  webhook: "`webhook`",
  deploy: "`deploy`",
  api: "`api`",
};

const code = (text: string) => `\`${text}\``;
/** Table text: paths, URLs and placeholders (words with / or <) as code, so `<repository>` is not read as HTML. */
const cell = (text: string) =>
  text
    .split(" ")
    .map((word) => {
      const [, core, tail] = /^(.*?)([,;)]*)$/.exec(word)!;
      return /[/<]/.test(core!) ? `\`${core}\`${tail}` : word;
    })
    .join(" ")
    .replace(/\|/g, "\\|");

function commandsCell(spec: OptionSpec): string {
  if (ALL.every((c) => spec.commands.includes(c))) return "all";
  return ALL.filter((c) => spec.commands.includes(c))
    .map((c) => COMMAND_LABEL[c])
    .join(", ");
}

function defaultCell(spec: OptionSpec): string {
  if (spec.default !== undefined) return code(spec.default);
  if (!spec.flag?.includes("<") && !spec.env) return "off";
  return cell(spec.defaultText ?? "none");
}

/** One docs/configuration.md table: every setting of `group`. */
export function optionsTable(group: OptionGroup): string {
  const rows = (OPTIONS as readonly OptionSpec[]).filter((s) => s.group === group);
  const lines = ["| variable | flag | default | commands | what it does |", "|---|---|---|---|---|"];
  for (const spec of rows) {
    const env = spec.env?.length ? spec.env.map(code).join(" or ") : "—";
    const flag = flagName(spec);
    lines.push(
      `| ${env} | ${flag ? code(flag) : "—"} | ${defaultCell(spec)} | ${commandsCell(spec)} | ${cell(spec.help)} |`,
    );
  }
  return lines.join("\n");
}

/** README's short table: the content and site settings that have a variable. */
export function readmeTable(): string {
  const rows = (OPTIONS as readonly OptionSpec[]).filter(
    (s) => (s.group === "content" || s.group === "site") && s.env?.length,
  );
  const lines = ["| variable | flag | default |", "|---|---|---|"];
  for (const spec of rows) {
    const flag = flagName(spec);
    lines.push(`| ${spec.env!.map(code).join(" or ")} | ${flag ? code(flag) : "—"} | ${defaultCell(spec)} |`);
  }
  return lines.join("\n");
}

/** Every generated table, by the name of its marker (`<!-- options:NAME -->` … `<!-- /options -->`). */
export function generatedTables(): Record<string, string> {
  const groups: OptionGroup[] = ["content", "site", "accounts", "payments", "watch", "webhook", "deploy", "api"];
  return { ...Object.fromEntries(groups.map((g) => [g, optionsTable(g)])), readme: readmeTable() };
}

/** `text` with each marked table replaced by the generated one; unknown or missing markers are left alone. */
export function withGeneratedTables(text: string, tables: Record<string, string>): string {
  return text.replace(/<!-- options:([a-z]+) -->\n[\s\S]*?<!-- \/options -->/g, (whole, name: string) =>
    tables[name] === undefined ? whole : `<!-- options:${name} -->\n${tables[name]}\n<!-- /options -->`,
  );
}
