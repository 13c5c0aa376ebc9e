/**
 * The content repository name check run when the preview starts (the rule itself is
 * src/core/repository-name.ts), with the Gatsby preview plugin's message.
 * Browser-safe: the preview island runs it before making any request.
 */

import { isValidRepositoryName } from "../core/repository-name.js";

export const INVALID_REPOSITORY_NAME_MESSAGE = "An invalid repository name was given.";

/** Returns null when the name is valid, else the message. */
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
