/**
 * Build configuration, validated once at start-up into absolute paths and typed values. The settings
 * are declared in ./options.ts (flag first, then environment variable, then default); a bad value is
 * an error naming the flag or variable it came from.
 */
import { resolve } from "node:path";
import { NzfError } from "./errors.js";
import { defaultOf, describeSource, readOptions, text, type OptionValues } from "./options.js";
// Prismic's repository name rule, shared with the browser preview (checked there at start-up).
import { isValidRepositoryName } from "./repository-name.js";

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
  /** Hosts (`host` or `host:port`) images may come from besides the repository's Prismic image CDN. */
  imageHosts: string[];
  verbose: boolean;
  /** A build of fetched content may lack the payment or sign-in settings without failing in CI (--allow-missing-settings). */
  allowMissingSettings?: boolean;
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
  imageHosts?: string;
}

/** An absolute http(s) URL, without trailing slashes; `source` is the flag or variable it came from. */
export function checkUrl(value: string, source: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
    return value.replace(/\/+$/, "");
  } catch {
    throw new NzfError("CONFIG_INVALID", `${source} must be an absolute http(s) URL, got "${value}"`, {
      subject: source,
    });
  }
}

/**
 * The site URL is an origin: pages are published at the root of their domain (no base path is
 * supported), and canonical links, the sitemap and Open Graph append page paths to it, so a query,
 * a fragment or credentials would end up in every one of them.
 */
export function checkSiteUrl(value: string, source: string): string {
  const refuse = (problem: string) =>
    new NzfError("CONFIG_INVALID", `The site URL "${value}" from ${source} ${problem}`, {
      subject: source,
      hint: "Give the site's origin only, such as https://nzf.org.au: the site is published at the root of its domain.",
    });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse("is not an absolute URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw refuse(`uses ${url.protocol.slice(0, -1)}; only http and https are supported.`);
  if (url.username || url.password) throw refuse("contains credentials.");
  if (value.includes("?")) throw refuse("has a query string.");
  if (value.includes("#")) throw refuse("has a fragment.");
  if (url.pathname !== "/") throw refuse(`has a path (${url.pathname}); base paths are not supported.`);
  return url.origin;
}

/**
 * NZF_IMAGE_HOSTS: `host` or `host:port` entries, comma-separated, as a URL's host writes them
 * (lower case, IPv6 in brackets, no default port), so the image download compares them as they are.
 */
export function checkImageHosts(value: string | undefined, source: string): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let host: string | undefined;
      try {
        const url = new URL(`http://${entry}`);
        if (url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password) host = url.host;
      } catch {
        host = undefined;
      }
      // The https default port would be dropped from a URL's host: say it without the port instead.
      if (host === undefined || entry.endsWith(":443") || entry.endsWith(":80"))
        throw new NzfError(
          "CONFIG_INVALID",
          `${source} must list hosts as host or host:port (not a default port), separated by commas; "${entry}" is not one`,
          { subject: source },
        );
      return host;
    });
}

/** The build part of resolved option values; `input` may add the programmatic work folders. */
export function buildConfigFrom(
  values: OptionValues,
  extra: { workDir?: string; imageCacheDir?: string; defaultRoot?: string } = {},
): BuildConfig {
  const root = resolve(text(values, "root") ?? extra.defaultRoot ?? process.cwd());
  const repository = text(values, "repository") ?? defaultOf("repository");
  if (!isValidRepositoryName(repository)) {
    throw new NzfError(
      "REPOSITORY_NAME_INVALID",
      `An invalid repository name was given. ("${repository}" from ${describeSource(values.repository)})`,
      {
        subject: values.repository.source,
      },
    );
  }
  const endpointRaw = text(values, "endpoint");
  const endpoint = endpointRaw ? checkUrl(endpointRaw, values.endpoint.source) : undefined;
  const siteUrlRaw = text(values, "siteUrl");
  const siteUrl =
    siteUrlRaw === undefined ? defaultOf("siteUrl") : checkSiteUrl(siteUrlRaw, describeSource(values.siteUrl));
  const sample = values.sample.value === true;
  const fetch = values.fetch.value === true;
  if (sample && fetch) {
    throw new NzfError(
      "CONFIG_INVALID",
      "--sample and --fetch cannot be used together: --sample builds the bundled sample, --fetch downloads live content",
      {
        subject: "--sample",
      },
    );
  }
  const contentDir = text(values, "contentDir");
  return {
    root,
    outDir: resolve(root, text(values, "out") ?? defaultOf("out")),
    contentDir: resolve(root, contentDir ?? "content-cache"),
    workDir: resolve(root, extra.workDir ?? ".nzf-cache"),
    imageCacheDir: resolve(
      root,
      extra.imageCacheDir ?? extra.workDir ?? ".nzf-cache",
      extra.imageCacheDir ? "" : "images",
    ),
    repository,
    endpoint,
    accessToken: text(values, "accessToken"),
    fetch,
    content: sample ? "sample" : fetch ? "fetched" : "auto",
    siteUrl,
    imageHosts: checkImageHosts(text(values, "imageHosts"), values.imageHosts.source),
    verbose: values.verbose.value === true,
    allowMissingSettings: allowed(values),
  };
}

/** --allow-missing-settings, or NZF_ALLOW_MISSING_SETTINGS set to anything but "", 0 or false. */
function allowed(values: OptionValues): boolean {
  const value = values.allowMissingSettings?.value;
  if (typeof value === "boolean") return value;
  const word = value?.trim().toLowerCase();
  return word !== undefined && word !== "" && word !== "0" && word !== "false";
}

/** The build configuration from programmatic input (a caller other than the CLI: the bench) and the environment. */
export function resolveConfig(input: ConfigInput, env: NodeJS.ProcessEnv = process.env): BuildConfig {
  const { workDir, imageCacheDir, ...flags } = input;
  return buildConfigFrom(readOptions("build", flags, env), { workDir, imageCacheDir });
}
