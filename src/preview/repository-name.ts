/**
 * The content repository name check run when the preview starts (specification section 5): at
 * least 4 characters, letters, digits or hyphens, starting and ending with a letter or digit.
 * Browser-safe: the preview island runs it before making any request.
 */

export const INVALID_REPOSITORY_NAME_MESSAGE = "An invalid repository name was given.";

// First and last characters alphanumeric, at least two characters between them, so 4 or more in all.
const REPOSITORY_NAME = /^[a-zA-Z0-9][a-zA-Z0-9-]{2,}[a-zA-Z0-9]$/;

export function isValidRepositoryName(name: unknown): name is string {
  return typeof name === "string" && REPOSITORY_NAME.test(name);
}

/** Returns null when the name is valid, else the specification's message. */
export function repositoryNameError(name: unknown): string | null {
  return isValidRepositoryName(name) ? null : INVALID_REPOSITORY_NAME_MESSAGE;
}

export class InvalidRepositoryNameError extends Error {
  readonly repositoryName: string;
  constructor(name: unknown) {
    super(INVALID_REPOSITORY_NAME_MESSAGE);
    this.name = "InvalidRepositoryNameError";
    this.repositoryName = String(name);
  }
}

/** Throws InvalidRepositoryNameError (message 'An invalid repository name was given.') for a bad name. */
export function validateRepositoryName(name: unknown): string {
  if (!isValidRepositoryName(name)) throw new InvalidRepositoryNameError(name);
  return name;
}
