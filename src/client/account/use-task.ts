/**
 * One small form's state on the signed-in page (change password, edit e-mail, forget a device):
 * busy, its own notice and error, and errors beside its fields. Each form runs one call at a time
 * and maps what the user pool says to a donor-facing sentence (src/auth/messages.ts); an error that
 * ends the session is passed up so the page goes back to sign-in.
 */
import { useRef, useState } from "react";
import { describeAuthError, type DonorError } from "../../auth/messages.js";
import type { FieldErrors } from "./field.js";

export type FieldError = { field: string; message?: string };

export interface Task {
  busy: boolean;
  notice: string | null;
  error: string | null;
  errors: FieldErrors;
  setNotice(text: string | null): void;
  /** Field errors found before calling anything. */
  refuse(errors: FieldErrors): void;
  /**
   * Runs the call; `fieldFor` puts a service error beside a field of this form instead of on top
   * (with its own sentence when the form knows better, e.g. "Your current password is not correct").
   */
  run(
    action: () => Promise<void>,
    fieldFor?: (error: DonorError, raw: unknown) => FieldError | undefined,
  ): Promise<void>;
}

export function useTask(onSessionEnded: (message: string) => void): Task {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const running = useRef(false);
  return {
    busy,
    notice,
    error,
    errors,
    setNotice,
    refuse(found) {
      setErrors(found);
      setError(null);
      setNotice(null);
    },
    async run(action, fieldFor) {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setErrors({});
      setError(null);
      setNotice(null);
      try {
        await action();
      } catch (raw) {
        const donor = describeAuthError(raw, "account");
        if (donor.invalidatesSession) return onSessionEnded(donor.message);
        const field = fieldFor?.(donor, raw);
        if (field) setErrors({ [field.field]: field.message ?? donor.message });
        else setError(donor.message);
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
  };
}
