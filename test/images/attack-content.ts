/**
 * What the image attack tests share: the sample content as a fetched repository's (its images on
 * the repository's own Prismic CDN path, found in the project folder's local images folder, so
 * nothing is downloaded unless a test points an image elsewhere), served by a local Prismic stub
 * and built by the compiled CLI in a new process, as CI runs it (`--fetch`).
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismicDocument } from "@prismicio/client";
import { readSnapshot } from "../../src/content/snapshot.js";
import { OPTIONS, type OptionSpec } from "../../src/core/options.js";
import { PROJECT_ROOT } from "../support/build-fixture.js";
import { startPrismicStub, type PrismicStub } from "../support/prismic-stub.js";
import { BIN, projectRoot, tempDir, type Env } from "../cli/cli-process.js";

export const REPO = "nzf-test";
export const ABOUT_ID = "rtcALtqZMPAR2xS2";
const TOKEN = "attack-test-token";

let sampleDocs: PrismicDocument[] | undefined;
const stubs: PrismicStub[] = [];

export async function sampleAsFetched(): Promise<PrismicDocument[]> {
  if (!sampleDocs) {
    const sample = await readSnapshot(join(PROJECT_ROOT, "content-cache/sample/snapshot.json"));
    sampleDocs = JSON.parse(
      JSON.stringify(sample.documents).replaceAll(
        "https://images.prismic.io/nzf-sample/",
        `https://images.prismic.io/${REPO}/`,
      ),
    ) as PrismicDocument[];
  }
  return sampleDocs;
}

/** A rich-text image block, as Prismic returns one. */
export function imageBlock(url: string, width = 800, height = 500): Record<string, unknown> {
  return { type: "image", url, alt: "attack", copyright: null, dimensions: { width, height } };
}

/** The sample with the about page's data changed by `change`. */
export async function withAbout(change: (data: Record<string, unknown>) => Record<string, unknown>) {
  return (await sampleAsFetched()).map((doc) =>
    doc.id === ABOUT_ID ? ({ ...doc, data: change(structuredClone(doc.data)) } as PrismicDocument) : doc,
  );
}

export interface MeasuredRun {
  code: number | null;
  output: string;
  root: string;
  dist: string;
  /** The CLI process's own resource usage at exit (process.resourceUsage(): maxRSS in KB, its threads included). */
  usage: NodeJS.ResourceUsage;
  ms: number;
}

/**
 * Fetches `documents` from a stub of their own and builds them with the compiled CLI, measuring the
 * process: a preload writes its process.resourceUsage() when it exits.
 */
export async function buildFetched(documents: PrismicDocument[], env: Env = {}, args: string[] = []) {
  const stub = await startPrismicStub({ documents, repository: REPO, accessToken: TOKEN });
  stubs.push(stub);
  const root = await projectRoot();
  const scratch = await tempDir("nzf-attack-");
  const usageFile = join(scratch, "usage.json");
  const preload = join(scratch, "usage.mjs");
  await writeFile(
    preload,
    `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(${JSON.stringify(usageFile)}, JSON.stringify(process.resourceUsage())));\n`,
  );
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const spec of OPTIONS as readonly OptionSpec[]) for (const name of spec.env ?? []) delete clean[name];
  delete clean.NODE_OPTIONS;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", preload, BIN, "--fetch", "--root", root, "--repository", REPO, "--endpoint", stub.endpoint, ...args],
    // Live content without payment settings fails in CI (SETTINGS_MISSING): beside the point here.
    {
      env: { ...clean, PRISMIC_ACCESS_TOKEN: TOKEN, NZF_ALLOW_MISSING_SETTINGS: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // A build that hangs must not hang the tests: killed after two minutes (and then fails on its code).
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  const ms = performance.now() - started;
  const usage = JSON.parse(await readFile(usageFile, "utf8")) as NodeJS.ResourceUsage;
  return { code, output, root, dist: join(root, "dist"), usage, ms } satisfies MeasuredRun;
}

export async function stopStubs(): Promise<void> {
  await Promise.all(stubs.splice(0).map((s) => s.stop()));
}
