/**
 * The account flow's state and rules, apart from its markup: which step is shown, errors and
 * notices, moving between steps, and running one adapter call at a time with its errors mapped to
 * donor-facing text (and a dead session sent back to sign-in).
 */
import { useEffect, useRef, useState } from "react";
import { describeAuthError, type AuthContext } from "../../auth/messages.js";
import type { AccountDetails, AuthAdapter, SignInStep } from "../../auth/types.js";
import type { ChallengeStep } from "./challenge-form.js";
import type { FieldErrors } from "./field.js";

export type View =
  | { name: "loading" }
  | { name: "unavailable"; message: string }
  | { name: "sign-in"; email?: string }
  | { name: "sign-up"; email?: string }
  | { name: "confirm"; email: string; destination?: string }
  | { name: "forgot"; email?: string }
  | { name: "reset"; email: string; destination?: string }
  | { name: "challenge"; email: string; step: ChallengeStep }
  | { name: "account"; account: AccountDetails };

/** Which inputs each view has, so an error about a field lands beside it or at the top. */
export const FIELDS: Record<View["name"], string[]> = {
  loading: [],
  unavailable: [],
  "sign-in": ["email", "password"],
  "sign-up": ["email", "password"],
  confirm: ["code"],
  forgot: ["email"],
  reset: ["code", "password"],
  challenge: ["response"],
  account: [],
};

export function useAccountFlow(loadAdapter: () => Promise<AuthAdapter>) {
  const [view, setView] = useState<View>({ name: "loading" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [moved, setMoved] = useState(false);
  const adapter = useRef<AuthAdapter | null>(null);
  const busyRef = useRef(false);
  const root = useRef<HTMLDivElement>(null);

  const go = (next: View, message: { notice?: string; error?: string } = {}) => {
    setView(next);
    setErrors({});
    setFormError(message.error ?? null);
    setNotice(message.notice ?? null);
    setMoved(true);
  };

  const showAccount = async (a: AuthAdapter) => go({ name: "account", account: await a.loadAccount() });

  const afterSignIn = async (a: AuthAdapter, step: SignInStep, email: string) => {
    if (step.step === "DONE") return showAccount(a);
    if (step.step === "CONFIRM_SIGN_UP") {
      const sent = await a.resendSignUpCode(email);
      return go(
        { name: "confirm", email, ...sent },
        { notice: "Your e-mail address is not confirmed yet. We sent you a new code." },
      );
    }
    if (step.step === "RESET_PASSWORD") {
      const reset = await a.resetPassword(email);
      return go(
        {
          name: "reset",
          email,
          ...(reset.step === "CONFIRM_RESET_PASSWORD" ? { destination: reset.destination } : {}),
        },
        { notice: "You need to choose a new password." },
      );
    }
    go({ name: "challenge", email, step });
  };

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const a = await loadAdapter();
        adapter.current = a;
        const user = await a.currentUser();
        if (!live) return;
        if (user) await showAccount(a);
        else setView({ name: "sign-in" });
      } catch (error) {
        if (!live) return;
        const donor = describeAuthError(error, "account");
        // A dead session (already cleaned by the adapter) means: sign in again. Anything else (the
        // library could not load, the service cannot be reached) would leave a form that cannot
        // work, so say so instead.
        if (donor.invalidatesSession && adapter.current) go({ name: "sign-in" }, { error: donor.message });
        else setView({ name: "unavailable", message: donor.message });
      }
    })();
    return () => {
      live = false;
    };
    // The adapter is resolved once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // After a failed submit, put the keyboard on the first field that needs attention.
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const invalid = root.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid?.tagName === "FIELDSET" ? invalid.querySelector<HTMLElement>("input") : invalid)?.focus();
  }, [errors]);

  const run = async (context: AuthContext, fieldErrors: FieldErrors, action: (a: AuthAdapter) => Promise<void>) => {
    const a = adapter.current;
    if (!a || busyRef.current) return;
    if (Object.keys(fieldErrors).length > 0) {
      setErrors(fieldErrors);
      setFormError(null);
      return;
    }
    busyRef.current = true;
    setBusy(true);
    setErrors({});
    setFormError(null);
    try {
      await action(a);
    } catch (error) {
      const donor = describeAuthError(error, context);
      const email = "email" in view ? view.email : undefined;
      if (donor.invalidatesSession) go({ name: "sign-in", email }, { error: donor.message });
      else if (donor.next === "reset-password" && context === "sign-in")
        go({ name: "forgot", email }, { notice: donor.message });
      else if (donor.field && FIELDS[view.name].includes(donor.field)) setErrors({ [donor.field]: donor.message });
      else setFormError(donor.message);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  return { view, setView, errors, formError, notice, setNotice, busy, moved, root, go, run, afterSignIn, adapter };
}
