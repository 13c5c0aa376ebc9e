/**
 * The public settings the browser preview needs, decided at build time and compiled into the
 * preview bundle as one constant (`process.env.NZF_PREVIEW_CONFIG`, an esbuild `define`; see
 * src/bundle/island-bundle.ts `previewEnv`). Compiled in rather than fetched: an editor's page
 * makes no extra request for it, donors never load it, and it cannot drift from the build.
 *
 * Only public values: the repository name, the API endpoint, the site URL and the public island
 * configuration the templates read. Never the build's Prismic access token.
 */

export const PREVIEW_CONFIG_ENV = "NZF_PREVIEW_CONFIG";

export interface PreviewPublicConfig {
  repositoryName: string;
  /** The v2 endpoint; absent means https://<repository>.cdn.prismic.io/api/v2. */
  endpoint?: string;
  siteUrl: string;
  /** Ask for an access token on 401/403 (a private repository needs one, and an editor may not have it stored yet). */
  promptForAccessToken: boolean;
  /** The build's public island configuration (auth, payments): templates read it, so drafts render alike. */
  public: Record<string, unknown>;
}

export interface PreviewConfigSource {
  repository: string;
  endpoint?: string;
  siteUrl: string;
}

/** The `previewEnv` of the browser bundles (compiled into the preview only). */
export function previewPublicEnv(
  config: PreviewConfigSource,
  publicConfig: Record<string, unknown> = {},
): Record<string, string> {
  const value: PreviewPublicConfig = {
    repositoryName: config.repository,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    siteUrl: config.siteUrl,
    promptForAccessToken: true,
    public: publicConfig,
  };
  return { [PREVIEW_CONFIG_ENV]: JSON.stringify(value) };
}

/** Parses the compiled-in JSON; null when the bundle was built without it (or it is unreadable). */
export function parsePreviewConfig(raw: string | undefined): PreviewPublicConfig | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PreviewPublicConfig>;
    if (!value || typeof value.repositoryName !== "string") return null;
    return {
      repositoryName: value.repositoryName,
      endpoint: typeof value.endpoint === "string" ? value.endpoint : undefined,
      siteUrl: typeof value.siteUrl === "string" ? value.siteUrl : "",
      promptForAccessToken: value.promptForAccessToken !== false,
      public: value.public && typeof value.public === "object" ? value.public : {},
    };
  } catch {
    return null;
  }
}
