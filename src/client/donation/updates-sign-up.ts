/**
 * The donation form's "Keep me updated" (issue 39): the sign-up for e-mail updates sent once the
 * gift is created, with the box's words as the consent. One Idempotency-Key per address, so sending
 * it again after a failure is the same sign-up; an address signed up is not sent again. Never in
 * the way of the gift: the outcome is a note for the card step. In the deferred pay kit, so it adds
 * nothing to what the form loads first.
 */
import type { PaymentsClient } from "../../payments/client.js";
import { PaymentsApiError } from "../../payments/errors.js";

export interface SignUpMemory {
  email: string;
  key: string;
  done: boolean;
}

export interface UpdatesNote {
  /** `confirmation_sent`, or the service's error code (`network` when it did not answer). */
  code: string;
  /** The service's message on a refusal; empty on success. */
  detail: string;
}

/** Resolves with the note to show, or null when this address was signed up already. */
export async function signUpOnce(
  client: PaymentsClient,
  memory: { current: SignUpMemory | null },
  email: string,
  consentText: string,
): Promise<UpdatesNote | null> {
  if (memory.current?.email !== email) memory.current = { email, key: crypto.randomUUID(), done: false };
  const attempt = memory.current;
  if (attempt.done) return null;
  attempt.done = true;
  try {
    await client.signUpForUpdates({ email, source: "donation-form", consentText, website: "" }, attempt.key);
    return { code: "confirmation_sent", detail: "" };
  } catch (error) {
    attempt.done = false;
    return { code: error instanceof PaymentsApiError ? error.code : "network", detail: (error as Error).message };
  }
}
