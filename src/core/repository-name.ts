/**
 * Prismic's rule for a repository name: at least 4 characters, letters,
 * digits or hyphens, starting and ending with a letter or digit. The build's configuration
 * (./config.ts) and the browser preview (src/preview/repository-name.ts) both check it.
 * Browser-safe: imports nothing.
 */

// First and last characters alphanumeric, at least two characters between them, so 4 or more in all.
const REPOSITORY_NAME = /^[a-zA-Z0-9][a-zA-Z0-9-]{2,}[a-zA-Z0-9]$/;

export function isValidRepositoryName(name: unknown): name is string {
  return typeof name === "string" && REPOSITORY_NAME.test(name);
}
