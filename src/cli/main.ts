/**
 * The command line: turns flags into the settings declared in src/core/options.ts, resolves them
 * once (src/cli/settings.ts) and runs the command. The only place that exits the process.
 */
import { Command } from "commander";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { createConsoleLogger, type Logger } from "../core/logger.js";
import { coloursFor, progressEnabled } from "../core/terminal.js";
import { formatError, NzfError } from "../core/errors.js";
import { resolveSettings } from "./settings.js";
import type { CommandName } from "../core/options.js";
import { COMMANDS, type Verb } from "../core/commands.js";
import { addDeclaredOptions, environmentHelp, givenFlags } from "./options.js";
import { deployRecordPath } from "../deploy/last-deploy.js";
import { fromCommanderError, nearest, strayWords } from "./command-line-errors.js";

// The project folder: where bin/ and lib/ live. Templates and src/client are read from here.
const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The command's logger, once made: main() clears its progress line before printing an error. */
let commandLogger: Logger | undefined;
/** The project folder (--root) its errors' files are read from, for their code frames. */
let commandRoot = PROJECT_ROOT;

async function run(verb: Verb, program: Command, command: Command): Promise<void> {
  const flags = givenFlags(program, command);
  const name: CommandName = verb === "build" && flags.watch ? "watch" : verb;
  const settings = resolveSettings(name, flags, process.env, PROJECT_ROOT);
  commandRoot = settings.build.root;
  const logger = (commandLogger = createConsoleLogger({
    level: settings.build.verbose ? "debug" : "info",
    colours: coloursFor(process.stderr),
    // One line redrawn in place for long stages, on a terminal only (src/core/terminal.ts).
    ...(progressEnabled(process.stderr)
      ? { progress: (text: string) => process.stderr.write(text), columns: () => process.stderr.columns }
      : {}),
  }));
  const { publicConfig } = settings;
  // Each deploy is recorded there, so that a dry run can plan offline (src/deploy/last-deploy.ts).
  const recordFile = deployRecordPath(settings.build.workDir);

  if (settings.watch && publicConfig) {
    const { runWatch } = await import("../watch/run-watch.js");
    await runWatch(settings.build, { logger, port: settings.watch.port, host: settings.watch.host, publicConfig });
    return;
  }
  if (settings.preview) {
    const { runPreview } = await import("./preview.js");
    await runPreview(settings.build.outDir, settings.preview, logger);
    return;
  }
  if (settings.api) {
    const { startApiServer } = await import("../api/node-server.js");
    const server = await startApiServer({
      ...settings.api,
      // The declared settings as checked, over the rest of the environment: the receipt, notice and
      // PayPal settings are read (and checked) by the service itself (docs/configuration.md).
      env: { ...process.env, ...settings.api.env },
      logger,
      content: {
        dir: settings.build.contentDir,
        repository: settings.build.repository,
        sample: settings.build.content === "sample",
      },
    });
    await new Promise<void>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
    });
    await server.stop();
    return;
  }
  if (name === "fetch") {
    const { fetchContent } = await import("../content/fetch.js");
    const { repository, endpoint, accessToken, contentDir } = settings.build;
    await fetchContent({ repository, endpoint, accessToken, cacheDir: contentDir }, { logger });
    return;
  }
  if (name === "deploy" && settings.deploy) {
    const { deploySite } = await import("../deploy/deploy.js");
    await deploySite(settings.build.outDir, settings.deploy, { logger, recordFile });
    return;
  }
  if (settings.webhook) {
    const { startWebhookService } = await import("../server/webhook-server.js");
    const { build } = await import("../pipeline/build.js");
    const { createBuilder } = await import("../pipeline/builder.js");
    // Kept for the server's lifetime: each webhook build reuses what the last one made.
    const builder = createBuilder();
    // The webhook server never plans offline: it has a bucket, or no deploy.
    const deploy = settings.deploy && "bucket" in settings.deploy ? settings.deploy : undefined;
    const service = await startWebhookService(settings.webhook, {
      logger,
      projectFolder: settings.build.root,
      // With a bucket, each published build is deployed in-process (docs/deploy.md).
      ...(deploy
        ? {
            deploy: (await import("../deploy/webhook-deploy.js")).createWebhookDeploy(settings.build.outDir, deploy, {
              logger,
              recordFile,
            }),
          }
        : {}),
      // A throw is recorded by the queue as a failed build; the published site stays as it was.
      runBuild: async (triggers) => {
        // Fetch only the documents the webhooks named, unless some trigger did not say (then everything).
        const ids = triggers.every((t) => t.documentIds?.length) ? triggers.flatMap((t) => t.documentIds!) : undefined;
        const result = await build(settings.build, { logger, publicConfig, changedDocumentIds: ids, builder });
        return { ok: true, pagesRebuilt: result.pagesRebuilt, pagesTotal: result.pages, durationMs: result.ms };
      },
    });
    await new Promise<void>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
    });
    await service.stop();
    await builder.close();
    return;
  }
  // A one-shot build is over in a second or two, too soon for most of what V8 would optimize to pay
  // for its compilation, which runs on background threads that compete with the render workers for
  // the cores. Tiering up later (16 times V8's default budget) saved about 9% of a 2,000-page CLI
  // build's CPU. Long-running processes (watch mode, the webhook server) keep V8's default.
  setFlagsFromString("--interrupt-budget=1048576");
  const { build } = await import("../pipeline/build.js");
  await build(settings.build, { logger, publicConfig });
  if (settings.deploy) {
    const { deploySite } = await import("../deploy/deploy.js");
    await deploySite(settings.build.outDir, settings.deploy, { logger, recordFile });
  }
}

/** A subcommand: words after it are refused (commander would otherwise say it in its own style, or not at all). */
function runCommand(verb: Verb, program: Command, command: Command): Promise<void> {
  if (command.args.length) throw strayWords(`nzf-build ${verb}`, command.args, program, WORDS);
  return run(verb, program, command);
}

const WORDS: string[] = [...COMMANDS, "help"];

function unknownCommand(word: string): NzfError {
  const near = nearest(word, WORDS);
  return new NzfError(
    "CONFIG_INVALID",
    `"${word}" is not an nzf-build command${near ? `: did you mean ${near}?` : "."}`,
    {
      subject: word,
      hint: `The commands are ${WORDS.join(", ")}; with none, nzf-build builds the site (nzf-build --help).`,
    },
  );
}

function version(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
}

export function createProgram(): Command {
  const program = new Command("nzf-build")
    .description("Builds the National Zakat Foundation website from Prismic content into static HTML (dist/).")
    .version(version(), "-V, --version", "print the version")
    .helpCommand("help [command]", "show help for a command")
    // Commander's errors are thrown (not printed, not exiting) and shown in the house style by main();
    // set before the subcommands are made, which inherit both.
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .showSuggestionAfterError(false)
    // Options given after a subcommand belong to it; those before it are read too (givenFlags).
    .enablePositionalOptions();
  addDeclaredOptions(program, ["build", "watch"], { acceptOthersHidden: true });
  program
    .addHelpText("after", environmentHelp(["build", "watch"]))
    // A word that is no command (`nzf-build biuld`) is named, with the command it is closest to.
    .allowExcessArguments(true)
    .action(() => {
      if (program.args.length) throw unknownCommand(program.args[0]!);
      return run("build", program, program);
    });

  const buildCommand = program.command("build").description("build the site (the default command)");
  addDeclaredOptions(buildCommand, ["build", "watch"], { acceptOthersHidden: true })
    .addHelpText("after", environmentHelp(["build", "watch"]))
    .allowExcessArguments(true)
    .action(() => runCommand("build", program, buildCommand));

  const previewCommand = program
    .command("preview")
    .description(
      "serve the published site (dist/) as S3 and CloudFront serve it: its headers, the CloudFront Function's redirects and trailing slashes, the 404 and 500 pages",
    );
  addDeclaredOptions(previewCommand, ["preview"], { acceptOthersHidden: true })
    .addHelpText("after", environmentHelp(["preview"]))
    .allowExcessArguments(true)
    .action(() => runCommand("preview", program, previewCommand));

  const fetchCommand = program
    .command("fetch")
    .description("download the live content into the content folder without building");
  addDeclaredOptions(fetchCommand, ["fetch"], { acceptOthersHidden: true })
    .addHelpText("after", environmentHelp(["fetch"]))
    .allowExcessArguments(true)
    .action(() => runCommand("fetch", program, fetchCommand));

  const webhookCommand = program
    .command("webhook")
    .description("run the rebuild server that Prismic's webhook calls when editors publish (see src/server/README.md)");
  addDeclaredOptions(webhookCommand, ["webhook"], { acceptOthersHidden: true })
    .addHelpText("after", environmentHelp(["webhook"]))
    .allowExcessArguments(true)
    .action(() => runCommand("webhook", program, webhookCommand));

  const deployCommand = program
    .command("deploy")
    .description(
      "upload the published site to S3 (only the files that differ), then invalidate its changed pages in CloudFront (docs/deploy.md)",
    );
  addDeclaredOptions(deployCommand, ["deploy"], { acceptOthersHidden: true })
    .addHelpText("after", environmentHelp(["deploy"]))
    .allowExcessArguments(true)
    .action(() => runCommand("deploy", program, deployCommand));

  const apiCommand = program
    .command("api")
    .description("run the payments API (docs/payments-api.md) on PGlite in --data-dir, or on DATABASE_URL");
  addDeclaredOptions(apiCommand, ["api"], { acceptOthersHidden: true })
    .addHelpText("after", environmentHelp(["api"]))
    .allowExcessArguments(true)
    .action(() => runCommand("api", program, apiCommand));

  return program;
}

/** What `nzf-build --watch` does, for its own help (it is a flag, so commander has no help of its own for it). */
const WATCH_DESCRIPTION = [
  "Serves the site on http://127.0.0.1:4321/ (a busy port moves on to the next free one) and rebuilds",
  "what changed each time you save a template, an island, a stylesheet or content. Open pages take",
  "each rebuild in place, without a reload: a new stylesheet is swapped in, a template or content",
  "edit morphs the page keeping focus and what was typed, an edited island is mounted again with its",
  "typed values. Temporary files editors write (sed's sedXXXXXX, vim's swap files and 4913, ~",
  "backups) rebuild nothing. A change to nzf-build's own code in src/ recompiles it and restarts on",
  "the same port. Errors show in the terminal and the browser while the last good site stays up.",
  "Builds into .nzf-cache/watch/site/, never dist/. One Ctrl+C stops everything.",
].join(" ");

/** `nzf-build --watch --help`, `nzf-build help watch`: the help of watch mode, with its options. */
function watchHelpWanted(args: string[]): boolean {
  const operands = args.filter((a) => !a.startsWith("-"));
  if (operands[0] === "help") return operands[1] === "watch" || (operands.length === 1 && args.includes("--watch"));
  return args.includes("--watch") && (args.includes("--help") || args.includes("-h")) && operands.length === 0;
}

function watchHelp(): string {
  const command = new Command("nzf-build --watch").usage("[options]").description(WATCH_DESCRIPTION);
  addDeclaredOptions(command, ["watch"]);
  return command.helpInformation() + environmentHelp(["watch"]) + "\n";
}

/** `nzf-build help biuld`: commander would print the general help; the word is named as for `nzf-build biuld`. */
function checkHelpTopic(args: string[]): void {
  // Only when "help" is there at all: parsing the words costs a second program, on every start otherwise.
  if (!args.includes("help")) return;
  const [command, topic] = createProgram().parseOptions(args).operands;
  if (command === "help" && topic !== undefined && !WORDS.includes(topic)) throw unknownCommand(topic);
}

async function main(): Promise<void> {
  const program = createProgram();
  try {
    if (watchHelpWanted(process.argv.slice(2))) {
      process.stdout.write(watchHelp());
      return;
    }
    checkHelpTopic(process.argv.slice(2));
    await program.parseAsync(process.argv);
  } catch (thrown) {
    const commander = fromCommanderError(thrown, program, process.argv.slice(2));
    if (commander === "done") return; // help or the version, printed
    const error = commander ?? thrown;
    const verbose = process.argv.includes("--verbose");
    // A progress line left by the stage that failed is cleared first.
    commandLogger?.progress?.("build", null);
    process.stderr.write(formatError(error, verbose, coloursFor(process.stderr), commandRoot) + "\n");
    process.exitCode = 1;
  }
}

await main();
