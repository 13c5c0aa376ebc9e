/**
 * Build configuration, validated once at start-up into absolute paths and typed values. Values come
 * from CLI flags first, then environment variables, then defaults. A bad value is an error naming
 * the flag or variable.
 */
import { resolve } from "node:path";
import { NzfError } from "./errors.js";
// The specification's repository name rule, shared with the browser preview (checked there at start-up).
import { isValidRepositoryName } from "../preview/repository-name.js";

export type ContentSource = "auto" | "sample" | "fetched";

export interface BuildConfig {
  /** The project folder: templates/, src/client/, content-cache/. */
  root: string;
  outDir: string;
  /** content-cache/: fetched snapshots and the bundled sample. */
  contentDir: string;
  /** .nzf-cache/: compiled templates, island bundles, the last build's record. */
  workDir: string;
  /** Processed and downloaded images; kept across builds and safe to share between builds. */
  imageCacheDir: string;
  repository: string;
  /** A custom documentAPIEndpoint (e.g. a local stub), instead of https://<repository>.cdn.prismic.io/api/v2. */
  endpoint?: string;
  accessToken?: string;
  /** Fetch from Prismic before building. */
  fetch: boolean;
  /** Which snapshot to build: `auto` = the fetched one when present, else the bundled sample. */
  content: ContentSource;
  /** Absolute site URL used in canonical links, Open Graph and the sitemap. */
  siteUrl: string;
  verbose: boolean;
}

export interface ConfigInput {
  root?: string;
  out?: string;
  contentDir?: string;
  workDir?: string;
  imageCacheDir?: string;
  repository?: string;
  endpoint?: string;
  fetch?: boolean;
  sample?: boolean;
  siteUrl?: string;
  verbose?: boolean;
}

function checkUrl(value: string, key: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
    return value.replace(/\/+$/, "");
  } catch {
    throw new NzfError("CONFIG_INVALID", `${key} must be an absolute http(s) URL, got "${value}"`, { subject: key });
  }
}

export function resolveConfig(input: ConfigInput, env: NodeJS.ProcessEnv = process.env): BuildConfig {
  const root = resolve(input.root ?? process.cwd());
  const repository = input.repository ?? env.PRISMIC_REPOSITORY ?? "nzf2020";
  if (!isValidRepositoryName(repository)) {
    throw new NzfError("REPOSITORY_NAME_INVALID", `An invalid repository name was given. ("${repository}" from ${input.repository ? "--repository" : "PRISMIC_REPOSITORY"})`, {
      subject: "repository",
    });
  }
  const endpointRaw = input.endpoint ?? env.PRISMIC_ENDPOINT;
  const endpoint = endpointRaw ? checkUrl(endpointRaw, input.endpoint ? "--endpoint" : "PRISMIC_ENDPOINT") : undefined;
  const siteUrl = checkUrl(input.siteUrl ?? env.SITE_URL ?? "https://nzf.org.au", input.siteUrl ? "--site-url" : "SITE_URL");
  if (input.sample && input.fetch) {
    throw new NzfError("CONFIG_INVALID", "--sample and --fetch cannot be used together: --sample builds the bundled sample, --fetch downloads live content", {
      subject: "--sample",
    });
  }
  return {
    root,
    outDir: resolve(root, input.out ?? env.NZF_OUT_DIR ?? "dist"),
    contentDir: resolve(root, input.contentDir ?? "content-cache"),
    workDir: resolve(root, input.workDir ?? ".nzf-cache"),
    imageCacheDir: resolve(root, input.imageCacheDir ?? input.workDir ?? ".nzf-cache", input.imageCacheDir ? "" : "images"),
    repository,
    endpoint,
    accessToken: env.PRISMIC_ACCESS_TOKEN || undefined,
    fetch: Boolean(input.fetch),
    content: input.sample ? "sample" : input.fetch ? "fetched" : "auto",
    siteUrl,
    verbose: Boolean(input.verbose),
  };
}
