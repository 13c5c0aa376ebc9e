/**
 * The command line: parses flags into a typed configuration and calls build(). The only place that
 * exits the process.
 */
import { Command, Option } from "commander";
import { resolveConfig, type ConfigInput } from "../core/config.js";
import { createConsoleLogger } from "../core/logger.js";
import { formatError } from "../core/errors.js";
import { build } from "../build.js";
import { resolvePublicConfig } from "../core/public-config.js";
import { readPaymentsBuildConfig } from "../payments/config.js";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

// The project folder: where bin/ and lib/ live. Templates and src/client are read from here.
const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));

interface BuildFlags extends ConfigInput {
  watch?: boolean;
  port?: string;
}

async function runBuild(flags: BuildFlags): Promise<void> {
  const logger = createConsoleLogger({ level: flags.verbose ? "debug" : "info" });
  const config = resolveConfig({ ...flags, root: flags.root ?? PROJECT_ROOT });
  if (flags.watch) {
    const { runWatch } = await import("../watch/run-watch.js");
    await runWatch(config, { logger, port: flags.port ? Number(flags.port) : undefined, publicConfig: resolvePublicConfig() });
    return;
  }
  // A one-shot build is over in a second or two, too soon for most of what V8 would optimize to pay
  // for its compilation, which runs on background threads that compete with the render workers for
  // the cores. Tiering up later (16 times V8's default budget) saved about 9% of a 2,000-page CLI
  // build's CPU. Long-running processes (watch mode, the webhook server) keep V8's default.
  setFlagsFromString("--interrupt-budget=1048576");
  await build(config, { logger, publicConfig: { payments: readPaymentsBuildConfig(process.env) } });
}

export function createProgram(): Command {
  const program = new Command("nzf-build")
    .description("Builds the National Zakat Foundation website from Prismic content into static HTML (dist/).")
    .showHelpAfterError("(run nzf-build --help for the options)");

  const buildOptions = (cmd: Command) =>
    cmd
      .option("--fetch", "download the live content from Prismic into content-cache/ first (CI does this)")
      .option("--sample", "build the bundled sample content, even if fetched content exists")
      .addOption(new Option("--repository <name>", "Prismic repository").env("PRISMIC_REPOSITORY").default("nzf2020"))
      .addOption(new Option("--endpoint <url>", "custom Prismic document API endpoint, e.g. http://127.0.0.1:3000/api/v2").env("PRISMIC_ENDPOINT"))
      .addOption(new Option("--out <dir>", "output folder").env("NZF_OUT_DIR").default("dist"))
      .addOption(new Option("--site-url <url>", "absolute URL of the site, for canonical links and the sitemap").env("SITE_URL").default("https://nzf.org.au"))
      .option("--root <dir>", "project folder with templates/ and src/client/ (default: this installation)")
      .option("--content-dir <dir>", "folder of content snapshots (default: content-cache/ in the project)")
      .option("--watch", "rebuild on changes and serve the site on a local URL with live reload")
      .option("--port <port>", "port for --watch (default 4321)")
      .option("--verbose", "log every stage's timing and show stack traces");

  buildOptions(program).action((flags: BuildFlags) => runBuild(flags));
  buildOptions(program.command("build").description("build the site (the default command)")).action((flags: BuildFlags) => runBuild(flags));

  program
    .command("fetch")
    .description("download the live content into content-cache/ without building")
    .addOption(new Option("--repository <name>", "Prismic repository").env("PRISMIC_REPOSITORY").default("nzf2020"))
    .addOption(new Option("--endpoint <url>", "custom Prismic document API endpoint").env("PRISMIC_ENDPOINT"))
    .option("--verbose", "show stack traces")
    .action(async (flags: BuildFlags) => {
      const logger = createConsoleLogger({ level: flags.verbose ? "debug" : "info" });
      const config = resolveConfig({ ...flags, root: PROJECT_ROOT, fetch: true });
      const { fetchContent } = await import("../content/fetch.js");
      await fetchContent({ repository: config.repository, endpoint: config.endpoint, accessToken: config.accessToken, cacheDir: config.contentDir }, { logger });
    });

  program
    .command("webhook")
    .description("run the rebuild server that Prismic's webhook calls when editors publish (see src/server/README.md)")
    .option("--port <port>", "port to listen on (NZF_WEBHOOK_PORT or PORT, default 8080)")
    .option("--host <host>", "address to listen on (NZF_WEBHOOK_HOST, default 127.0.0.1)")
    .option("--secret <secret>", "the webhook secret set in Prismic (NZF_WEBHOOK_SECRET); required")
    .option("--deploy-command <command>", "shell command run after each published build, e.g. an aws s3 sync (NZF_DEPLOY_COMMAND)")
    .option("--deploy-timeout <seconds>", "how long the deploy command may run (NZF_DEPLOY_TIMEOUT, default 600)")
    .addOption(new Option("--repository <name>", "Prismic repository").env("PRISMIC_REPOSITORY").default("nzf2020"))
    .addOption(new Option("--endpoint <url>", "custom Prismic document API endpoint").env("PRISMIC_ENDPOINT"))
    .addOption(new Option("--out <dir>", "output folder").env("NZF_OUT_DIR").default("dist"))
    .addOption(new Option("--site-url <url>", "absolute URL of the site").env("SITE_URL").default("https://nzf.org.au"))
    .option("--verbose", "debug logging and stack traces")
    .action(async (flags: BuildFlags & { secret?: string; host?: string; deployCommand?: string; deployTimeout?: string }) => {
      const logger = createConsoleLogger({ level: flags.verbose ? "debug" : "info" });
      const { resolveWebhookConfig, startWebhookService } = await import("../server/webhook-server.js");
      const webhook = resolveWebhookConfig(flags);
      const config = resolveConfig({ ...flags, root: PROJECT_ROOT, fetch: true });
      const publicConfig = resolvePublicConfig();
      const service = await startWebhookService(webhook, {
        logger,
        // A throw is recorded by the queue as a failed build; the published site stays as it was.
        runBuild: async (triggers) => {
          // Fetch only the documents the webhooks named, unless some trigger did not say (then everything).
          const ids = triggers.every((t) => t.documentIds?.length) ? triggers.flatMap((t) => t.documentIds!) : undefined;
          const result = await build(config, { logger, publicConfig, changedDocumentIds: ids });
          return { ok: true, pagesRebuilt: result.pagesRebuilt, pagesTotal: result.pages, durationMs: result.ms };
        },
      });
      await new Promise<void>((resolve) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
      });
      await service.stop();
    });

  return program;
}

async function main(): Promise<void> {
  const program = createProgram();
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    const verbose = process.argv.includes("--verbose");
    process.stderr.write(formatError(error, verbose) + "\n");
    process.exitCode = 1;
  }
}

await main();
