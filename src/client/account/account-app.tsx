/**
 * The account flow's markup: one step at a time, each with its form. State and rules live in
 * useAccountFlow; the app talks only to an AuthAdapter (Amplify in the browser, a scripted fake in
 * tests), so every step, including MFA challenges, can be driven in component tests. No
 * window/document during render.
 */
import {
  validateChallengeResponse,
  validateCode,
  validateEmail,
  validatePassword,
  describeAuthError,
} from "../../auth/messages.js";
import type { AuthAdapter } from "../../auth/types.js";
import { useMemo } from "react";
import { createAccountApi } from "./account-api.js";
import type { ReceiptIssuer } from "./printable.js";
import { ChallengeForm, challengeTitle } from "./challenge-form.js";
import { HostedSignInChoice } from "./hosted-choice.js";
import { onlyErrors } from "./field.js";
import { ConfirmSignUpForm, ForgotPasswordForm, ResetPasswordForm, SignInForm, SignUpForm } from "./forms.js";
import { Step } from "./step.js";
import { useAccountFlow } from "./use-account-flow.js";
import { useOnDemand } from "./use-on-demand.js";

export interface AccountAppProps {
  /** Resolves the adapter once, in an effect (the browser lazily imports Amplify here). */
  loadAdapter: () => Promise<AuthAdapter>;
  /** The account GraphQL API (NZF_ACCOUNT_API_URL); without it the page says what it cannot show. */
  accountApiUrl?: string;
  /** The pool allows two-step sign-in (NZF_COGNITO_MFA optional or on): only then is it offered. */
  mfa?: boolean;
  /** The page's words for a donor not signed in ("Sign in with your e-mail address…"); hidden once signed in. */
  intro?: string;
  issuer?: ReceiptIssuer;
}

export function AccountApp({ loadAdapter, accountApiUrl, mfa = false, intro, issuer }: AccountAppProps) {
  const { view, setView, errors, formError, notice, setNotice, busy, moved, root, go, run, afterSignIn, adapter } =
    useAccountFlow(loadAdapter);
  // The signed-in view (giving, receipts, plans, security) is a chunk of its own, fetched from the
  // start while the auth library loads: no donor reaches it sooner, and the page's up-front code
  // is only the sign-in forms.
  const signedIn = useOnDemand(() => import("./account-view.js"));
  const api = useMemo(
    () =>
      accountApiUrl
        ? createAccountApi({
            url: accountApiUrl,
            token: async (forceRefresh) => (adapter.current ? adapter.current.sessionToken(forceRefresh) : null),
          })
        : null,
    [accountApiUrl, adapter],
  );
  const toSignIn = (email?: string) => () => go({ name: "sign-in", email });
  let title: string;
  let body: React.ReactNode = null;
  switch (view.name) {
    case "loading":
      title = "Checking whether you are signed in";
      break;
    case "unavailable":
      title = "Sign-in is unavailable";
      body = <p>{view.message} Please reload the page or try again later.</p>;
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
            run(
              "sign-in",
              onlyErrors({ email: validateEmail(email), password: password ? null : validatePassword(password) }),
              async (a) => {
                setView({ name: "sign-in", email: email.trim() });
                await afterSignIn(a, await a.signIn(email.trim(), password), email.trim());
              },
            )
          }
        />
      );
      if (adapter.current?.hostedSignIn)
        body = (
          <>
            {body}
            <HostedSignInChoice
              onChoose={() =>
                run("sign-in", {}, async (a) => {
                  await a.hostedSignIn?.();
                })
              }
            />
          </>
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
            run(
              "sign-up",
              onlyErrors({ email: validateEmail(email), password: validatePassword(password) }),
              async (a) => {
                const step = await a.signUp(email.trim(), password);
                if (step.step === "CONFIRM_SIGN_UP")
                  go({ name: "confirm", email: email.trim(), destination: step.destination });
                else if (step.step === "AUTO_SIGN_IN") await afterSignIn(a, await a.autoSignIn(), email.trim());
                else go({ name: "sign-in", email: email.trim() }, { notice: "Your account is ready. Please sign in." });
              },
            )
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
              if (step.step !== "AUTO_SIGN_IN")
                return go(
                  { name: "sign-in", email: view.email },
                  { notice: "Your e-mail address is confirmed. Please sign in." },
                );
              try {
                await afterSignIn(a, await a.autoSignIn(), view.email);
              } catch {
                go(
                  { name: "sign-in", email: view.email },
                  { notice: "Your e-mail address is confirmed. Please use your credentials to sign in." },
                );
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
              if (step.step === "DONE")
                go({ name: "sign-in", email: email.trim() }, { notice: "Your password was reset. Please sign in." });
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
              go(
                { name: "sign-in", email: view.email },
                { notice: "Your new password is saved. Please sign in with it." },
              );
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
            const invalid = selecting
              ? response
                ? null
                : "Choose one of the methods."
              : view.step.step === "NEW_PASSWORD_REQUIRED"
                ? validatePassword(response)
                : validateChallengeResponse(response);
            return run("challenge", onlyErrors({ response: invalid }), async (a) =>
              afterSignIn(a, await a.confirmSignIn(response.trim()), view.email),
            );
          }}
        />
      );
      break;
    case "account":
      title = "Your account";
      if (signedIn === null) {
        body = <p aria-busy="true">Loading your account…</p>;
        break;
      }
      if (signedIn === "failed") {
        body = (
          <p role="alert">
            Your account could not be shown: this page could not load its code. Check your connection, then reload the
            page.
          </p>
        );
        break;
      }
      body = (
        <signedIn.value.AccountView
          account={view.account}
          api={api}
          issuer={issuer}
          adapter={adapter.current}
          mfa={mfa}
          onChanged={(account) => setView({ name: "account", account })}
          onSessionEnded={(message) => go({ name: "sign-in" }, { error: message })}
          onSignOut={(global) =>
            run("account", {}, async (a) => {
              let done: void | { complete: boolean };
              try {
                done = await a.signOut({ global });
              } catch (error) {
                return go(
                  { name: "sign-in" },
                  { error: `${describeAuthError(error, "account").message} You are signed out on this device.` },
                );
              }
              go(
                { name: "sign-in" },
                {
                  notice: !global
                    ? "You are signed out."
                    : done && done.complete === false
                      ? "You are signed out on all devices, but we could not finish cancelling this device's sign-in: the sign-in service did not answer for 5 seconds. It stops working by itself within an hour; until then, close this browser if others use this device."
                      : "You are signed out on all devices.",
                },
              );
            })
          }
        />
      );
      break;
  }
  return (
    <>
      {intro && view.name !== "account" ? <p>{intro}</p> : null}
      <div ref={root} className="account-app">
        <Step title={title} focus={moved} error={formError} notice={notice} busy={busy || view.name === "loading"}>
          {body}
        </Step>
      </div>
    </>
  );
}
