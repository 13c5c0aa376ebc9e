/**
 * The plain forms of the account flow. They only render and hand the submitted values up; the
 * account app validates, calls the auth adapter and decides the next step. Secondary actions are
 * real buttons (type="button"), reachable by Tab and Enter/Space.
 */
import type { FormEvent, ReactNode } from "react";
import { Actions, Field, formValues, type FieldErrors } from "./field.js";

export interface FormProps {
  errors: FieldErrors;
  onSubmit: (values: Record<string, string>) => void;
  email?: string;
}

function Form({ onSubmit, children }: { onSubmit: (values: Record<string, string>) => void; children: ReactNode }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(formValues(event.currentTarget));
  };
  return (
    <form noValidate onSubmit={submit}>
      {children}
    </form>
  );
}

const PASSWORD_HINT = "At least 8 characters. Any characters are fine; a longer phrase is safer.";

export function SignInForm(props: FormProps & { onCreate: () => void; onForgot: () => void }) {
  return (
    <Form onSubmit={props.onSubmit}>
      <Field
        name="email"
        label="E-mail address"
        type="email"
        autoComplete="username"
        defaultValue={props.email}
        errors={props.errors}
      />
      <Field name="password" label="Password" type="password" autoComplete="current-password" errors={props.errors} />
      <Actions>
        <button type="submit">Sign in</button>
        <button type="button" onClick={props.onForgot}>
          Forgot your password?
        </button>
        <button type="button" onClick={props.onCreate}>
          Create an account
        </button>
      </Actions>
    </Form>
  );
}

export function SignUpForm(props: FormProps & { onSignIn: () => void }) {
  return (
    <Form onSubmit={props.onSubmit}>
      <Field
        name="email"
        label="E-mail address"
        type="email"
        autoComplete="username"
        defaultValue={props.email}
        errors={props.errors}
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        errors={props.errors}
      />
      <Actions>
        <button type="submit">Create account</button>
        <button type="button" onClick={props.onSignIn}>
          I already have an account
        </button>
      </Actions>
    </Form>
  );
}

export function ConfirmSignUpForm(
  props: FormProps & { destination?: string; onResend: () => void; onSignIn: () => void },
) {
  return (
    <Form onSubmit={props.onSubmit}>
      <p>
        We sent a confirmation code to {props.destination ?? props.email ?? "your e-mail address"}. Enter it below to
        finish creating your account.
      </p>
      <input type="hidden" name="email" value={props.email ?? ""} />
      <Field
        name="code"
        label="Confirmation code"
        inputMode="numeric"
        autoComplete="one-time-code"
        errors={props.errors}
      />
      <Actions>
        <button type="submit">Confirm</button>
        <button type="button" onClick={props.onResend}>
          Send a new code
        </button>
        <button type="button" onClick={props.onSignIn}>
          Back to sign in
        </button>
      </Actions>
    </Form>
  );
}

export function ForgotPasswordForm(props: FormProps & { onSignIn: () => void }) {
  return (
    <Form onSubmit={props.onSubmit}>
      <p>Enter the e-mail address of your account. We will send you a code to choose a new password.</p>
      <Field
        name="email"
        label="E-mail address"
        type="email"
        autoComplete="username"
        defaultValue={props.email}
        errors={props.errors}
      />
      <Actions>
        <button type="submit">Send code</button>
        <button type="button" onClick={props.onSignIn}>
          Back to sign in
        </button>
      </Actions>
    </Form>
  );
}

export function ResetPasswordForm(props: FormProps & { destination?: string; onSignIn: () => void }) {
  return (
    <Form onSubmit={props.onSubmit}>
      <p>We sent a code to {props.destination ?? props.email ?? "your e-mail address"}.</p>
      <Field name="code" label="Code" inputMode="numeric" autoComplete="one-time-code" errors={props.errors} />
      <Field
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        errors={props.errors}
      />
      <Actions>
        <button type="submit">Save new password</button>
        <button type="button" onClick={props.onSignIn}>
          Back to sign in
        </button>
      </Actions>
    </Form>
  );
}
