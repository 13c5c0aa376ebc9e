/**
 * The account flow as one small state machine: which step is shown, its errors and notices. It
 * talks only to an AuthAdapter (Amplify in the browser, a scripted fake in tests), so every step,
 * including MFA challenges, can be driven in component tests. No window/document during render.
 */
import { useEffect, useRef, useState } from "react";
import { describeAuthError, validateChallengeResponse, validateCode, validateEmail, validatePassword, type AuthContext } from "../../auth/messages.js";
import type { AccountDetails, AuthAdapter, SignInStep } from "../../auth/types.js";
import { AccountView } from "./account-view.js";
import { ChallengeForm, challengeTitle, type ChallengeStep } from "./challenge-form.js";
import { onlyErrors, type FieldErrors } from "./field.js";
import { ConfirmSignUpForm, ForgotPasswordForm, ResetPasswordForm, SignInForm, SignUpForm } from "./forms.js";
import { Step } from "./step.js";

type View =
  | { name: "loading" }
  | { name: "sign-in"; email?: string }
  | { name: "sign-up"; email?: string }
  | { name: "confirm"; email: string; destination?: string }
  | { name: "forgot"; email?: string }
  | { name: "reset"; email: string; destination?: string }
  | { name: "challenge"; email: string; step: ChallengeStep }
  | { name: "account"; account: AccountDetails };

/** Which inputs each view has, so an error about a field lands beside it or at the top. */
const FIELDS: Record<View["name"], string[]> = {
  loading: [],
  "sign-in": ["email", "password"],
  "sign-up": ["email", "password"],
  confirm: ["code"],
  forgot: ["email"],
  reset: ["code", "password"],
  challenge: ["response"],
  account: [],
};

export interface AccountAppProps {
  /** Resolves the adapter once, in an effect (the browser lazily imports Amplify here). */
  loadAdapter: () => Promise<AuthAdapter>;
}

export function AccountApp({ loadAdapter }: AccountAppProps) {
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
      return go({ name: "confirm", email, ...sent }, { notice: "Your e-mail address is not confirmed yet. We sent you a new code." });
    }
    if (step.step === "RESET_PASSWORD") {
      const reset = await a.resetPassword(email);
      return go({ name: "reset", email, ...(reset.step === "CONFIRM_RESET_PASSWORD" ? { destination: reset.destination } : {}) }, { notice: "You need to choose a new password." });
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
        if (live) setView({ name: "sign-in" }), setFormError(describeAuthError(error, "account").message);
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
      else if (donor.next === "reset-password" && context === "sign-in") go({ name: "forgot", email }, { notice: donor.message });
      else if (donor.field && FIELDS[view.name].includes(donor.field)) setErrors({ [donor.field]: donor.message });
      else setFormError(donor.message);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const toSignIn = (email?: string) => () => go({ name: "sign-in", email });
  let title: string;
  let body: React.ReactNode = null;
  switch (view.name) {
    case "loading":
      title = "Checking whether you are signed in";
      break;
    case "sign-in":
      title = "Sign in";
      body = (
        <SignInForm
          email={view.email}
          errors={errors}
          onCreate={() => go({ name: "sign-up", email: view.email })}
          onForgot={() => go({ name: "forgot", email: view.email })}
          onSubmit={({ email = "", password = "" }) =>
            run("sign-in", onlyErrors({ email: validateEmail(email), password: password ? null : validatePassword(password) }), async (a) => {
              setView({ name: "sign-in", email: email.trim() });
              await afterSignIn(a, await a.signIn(email.trim(), password), email.trim());
            })
          }
        />
      );
      break;
    case "sign-up":
      title = "Create an account";
      body = (
        <SignUpForm
          email={view.email}
          errors={errors}
          onSignIn={toSignIn(view.email)}
          onSubmit={({ email = "", password = "" }) =>
            run("sign-up", onlyErrors({ email: validateEmail(email), password: validatePassword(password) }), async (a) => {
              const step = await a.signUp(email.trim(), password);
              if (step.step === "CONFIRM_SIGN_UP") go({ name: "confirm", email: email.trim(), destination: step.destination });
              else if (step.step === "AUTO_SIGN_IN") await afterSignIn(a, await a.autoSignIn(), email.trim());
              else go({ name: "sign-in", email: email.trim() }, { notice: "Your account is ready. Please sign in." });
            })
          }
        />
      );
      break;
    case "confirm":
      title = "Confirm your e-mail address";
      body = (
        <ConfirmSignUpForm
          email={view.email}
          destination={view.destination}
          errors={errors}
          onSignIn={toSignIn(view.email)}
          onResend={() =>
            run("confirm", {}, async (a) => {
              const sent = await a.resendSignUpCode(view.email);
              setView({ ...view, ...sent });
              setNotice(`We sent a new code to ${sent.destination ?? view.email}.`);
            })
          }
          onSubmit={({ code = "" }) =>
            run("confirm", onlyErrors({ code: validateCode(code) }), async (a) => {
              const step = await a.confirmSignUp(view.email, code.trim());
              if (step.step !== "AUTO_SIGN_IN") return go({ name: "sign-in", email: view.email }, { notice: "Your e-mail address is confirmed. Please sign in." });
              try {
                await afterSignIn(a, await a.autoSignIn(), view.email);
              } catch {
                go({ name: "sign-in", email: view.email }, { notice: "Your e-mail address is confirmed. Please use your credentials to sign in." });
              }
            })
          }
        />
      );
      break;
    case "forgot":
      title = "Reset your password";
      body = (
        <ForgotPasswordForm
          email={view.email}
          errors={errors}
          onSignIn={toSignIn(view.email)}
          onSubmit={({ email = "" }) =>
            run("reset", onlyErrors({ email: validateEmail(email) }), async (a) => {
              const step = await a.resetPassword(email.trim());
              if (step.step === "DONE") go({ name: "sign-in", email: email.trim() }, { notice: "Your password was reset. Please sign in." });
              else go({ name: "reset", email: email.trim(), destination: step.destination });
            })
          }
        />
      );
      break;
    case "reset":
      title = "Choose a new password";
      body = (
        <ResetPasswordForm
          email={view.email}
          destination={view.destination}
          errors={errors}
          onSignIn={toSignIn(view.email)}
          onSubmit={({ code = "", password = "" }) =>
            run("reset", onlyErrors({ code: validateCode(code), password: validatePassword(password) }), async (a) => {
              await a.confirmResetPassword(view.email, code.trim(), password);
              go({ name: "sign-in", email: view.email }, { notice: "Your new password is saved. Please sign in with it." });
            })
          }
        />
      );
      break;
    case "challenge":
      title = challengeTitle(view.step);
      body = (
        <ChallengeForm
          step={view.step}
          errors={errors}
          onCancel={toSignIn(view.email)}
          onSubmit={({ response = "" }) => {
            const selecting = view.step.step === "MFA_SELECTION" || view.step.step === "MFA_SETUP_SELECTION";
            const invalid = selecting ? (response ? null : "Choose one of the methods.") : view.step.step === "NEW_PASSWORD_REQUIRED" ? validatePassword(response) : validateChallengeResponse(response);
            return run("challenge", onlyErrors({ response: invalid }), async (a) => afterSignIn(a, await a.confirmSignIn(response.trim()), view.email));
          }}
        />
      );
      break;
    case "account":
      title = "Your details";
      body = (
        <AccountView
          account={view.account}
          onSignOut={(global) =>
            run("account", {}, async (a) => {
              try {
                await a.signOut({ global });
              } catch (error) {
                return go({ name: "sign-in" }, { error: `${describeAuthError(error, "account").message} You are signed out on this device.` });
              }
              go({ name: "sign-in" }, { notice: global ? "You are signed out on all devices." : "You are signed out." });
            })
          }
        />
      );
      break;
  }
  return (
    <div ref={root} className="account-app">
      <Step title={title} focus={moved} error={formError} notice={notice} busy={busy || view.name === "loading"}>
        {body}
      </Step>
    </div>
  );
}
