// @vitest-environment happy-dom
/**
 * Tiny helpers for component tests in happy-dom. React's act() is absent from production builds
 * (the test environment sets NODE_ENV=production), so tests wait for the DOM to settle instead.
 */
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import axe from "axe-core";
import { AccountApp } from "../../src/client/account/account-app.js";
import AccountIsland from "../../src/client/islands/account.js";
import type { AccountDetails, AuthAdapter, SignInStep } from "../../src/auth/types.js";
import type { ReactElement } from "react";

// vitest.config.ts sets NODE_ENV=production, whose React build lacks the dev JSX runtime the test
// transform emits; switch to development before React loads (as the preview tests do).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

async function waitFor<T>(check: () => T, timeoutMs = 2000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return check();
    } catch (error) {
      last = error;
    }
    await new Promise((ok) => setTimeout(ok, 5));
  }
  throw last;
}

function mount(element: ReactElement): { container: HTMLElement; root: Root; unmount(): void } {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  root.render(element);
  return { container, root, unmount: () => (root.unmount(), container.remove()) };
}

function byLabel(container: HTMLElement, label: string): HTMLInputElement {
  const labelEl = [...container.querySelectorAll("label")].find((l) => l.textContent === label);
  if (!labelEl) throw new Error(`no label "${label}"`);
  const input = container.querySelector<HTMLInputElement>(`#${CSS.escape(labelEl.htmlFor)}`);
  if (!input) throw new Error(`label "${label}" points at nothing`);
  return input;
}

function button(container: HTMLElement, text: string): HTMLButtonElement {
  const found = [...container.querySelectorAll("button")].find((b) => b.textContent === text);
  if (!found)
    throw new Error(
      `no button "${text}"; have ${[...container.querySelectorAll("button")].map((b) => b.textContent).join(", ")}`,
    );
  return found;
}

function heading(container: HTMLElement): HTMLElement {
  const h = container.querySelector<HTMLElement>("h2");
  if (!h) throw new Error("no step heading");
  return h;
}

/** Types into an uncontrolled input (the forms read FormData on submit). */
function type(input: HTMLInputElement, value: string): void {
  input.focus();
  input.value = value;
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

// ---- a scripted fake adapter: each test says what the "user pool" answers -------------------

type Calls = { method: string; args: unknown[] }[];

function authError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

const ACCOUNT: AccountDetails = {
  username: "amina@example.org",
  email: "amina@example.org",
  emailVerified: true,
  phoneNumberVerified: false,
  mfaPreference: "NOMFA",
  devices: [
    { id: "d1", name: "Chromium on Linux", lastSeen: "2025-03-01T10:00:00.000Z" },
    {
      id: "d2",
      name: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      // 23:30 UTC on 27 November is 10:30 on the 28th in Sydney.
      lastSeen: "2026-11-27T23:30:00.000Z",
      current: true,
    },
  ],
};

function fakeAdapter(script: Partial<AuthAdapter>): { adapter: AuthAdapter; calls: Calls } {
  const calls: Calls = [];
  const missing = (method: string) => async () => {
    throw new Error(`unexpected call ${method}`);
  };
  const base: AuthAdapter = {
    currentUser: async () => null,
    signUp: missing("signUp"),
    confirmSignUp: missing("confirmSignUp"),
    resendSignUpCode: missing("resendSignUpCode"),
    autoSignIn: missing("autoSignIn"),
    signIn: missing("signIn"),
    confirmSignIn: missing("confirmSignIn"),
    resetPassword: missing("resetPassword"),
    confirmResetPassword: missing("confirmResetPassword"),
    loadAccount: async () => ACCOUNT,
    signOut: async () => undefined,
    sessionToken: missing("sessionToken"),
    changePassword: missing("changePassword"),
    forgetDevice: missing("forgetDevice"),
    updateContact: missing("updateContact"),
    sendContactCode: missing("sendContactCode"),
    confirmContact: missing("confirmContact"),
    setUpTotp: missing("setUpTotp"),
    verifyTotp: missing("verifyTotp"),
    setMfaPreference: missing("setMfaPreference"),
    ...script,
  };
  const adapter = new Proxy(base, {
    get(target, key: string) {
      // Only the adapter's own methods: a Proxy answering "then" would look like a promise.
      if (!(key in target)) return undefined;
      const fn = target[key as keyof AuthAdapter] as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        calls.push({ method: key, args });
        return fn(...args);
      };
    },
  });
  return { adapter, calls };
}

let current: ReturnType<typeof mount> | undefined;
afterEach(() => {
  current?.unmount();
  current = undefined;
});

function start(adapter: AuthAdapter) {
  current = mount(<AccountApp loadAdapter={async () => adapter} />);
  return current.container;
}

async function stepShown(container: HTMLElement, title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const h = heading(container);
    expect(h.textContent).toBe(title);
    return h;
  });
}

async function expectFocusOn(element: Element) {
  await waitFor(() => expect(document.activeElement).toBe(element));
}

async function expectAxeClean(container: HTMLElement) {
  // Colour contrast needs real layout: the browser tests check it; everything else is checked here.
  const result = await axe.run(container, {
    rules: { "color-contrast": { enabled: false }, region: { enabled: false } },
  });
  expect(result.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

function fieldError(input: HTMLInputElement): string {
  expect(input.getAttribute("aria-invalid")).toBe("true");
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ");
  const text = ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
  return text.trim();
}

// ---- tests ------------------------------------------------------------------------------------

describe("account island", () => {
  it("says sign-in is unavailable when no user pool was configured", async () => {
    current = mount(<AccountIsland auth={null} />);
    await waitFor(() => expect(current!.container.textContent).toContain("Sign-in is unavailable"));
    expect(current.container.querySelector("form")).toBeNull();
  });

  it("shows the earlier site's messages beside empty fields, focusing the first", async () => {
    const { adapter, calls } = fakeAdapter({});
    const c = start(adapter);
    await stepShown(c, "Sign in");
    await expectAxeClean(c);
    button(c, "Sign in").click();
    const email = byLabel(c, "E-mail address");
    await waitFor(() => expect(fieldError(email)).toBe("Error: Username cannot be empty"));
    expect(fieldError(byLabel(c, "Password"))).toBe("Error: Password cannot be empty");
    await expectFocusOn(email);
    expect(calls.map((x) => x.method)).toEqual(["currentUser"]);
    await expectAxeClean(c);
  });

  it("signs up, confirms with a code (after a wrong one), signs in automatically and shows the account", async () => {
    const { adapter, calls } = fakeAdapter({
      signUp: async () => ({ step: "CONFIRM_SIGN_UP", destination: "a***@e***" }),
      confirmSignUp: async (_email, code) => {
        if (code !== "123456")
          throw authError("CodeMismatchException", "Invalid verification code provided, please try again.");
        return { step: "AUTO_SIGN_IN" };
      },
      resendSignUpCode: async () => ({ destination: "a***@e***" }),
      autoSignIn: async () => ({ step: "DONE" }),
    });
    const c = start(adapter);
    await stepShown(c, "Sign in");
    button(c, "Create an account").click();
    await expectFocusOn(await stepShown(c, "Create an account"));
    type(byLabel(c, "E-mail address"), "amina@example.org");
    type(byLabel(c, "Password"), "short");
    button(c, "Create account").click();
    await waitFor(() =>
      expect(fieldError(byLabel(c, "Password"))).toContain("Error: The password must have at least 8 characters."),
    );
    type(byLabel(c, "Password"), "eight ch");
    button(c, "Create account").click();

    const confirm = await stepShown(c, "Confirm your e-mail address");
    await expectFocusOn(confirm);
    expect(c.textContent).toContain("We sent a confirmation code to a***@e***");
    await expectAxeClean(c);
    button(c, "Confirm").click();
    await waitFor(() =>
      expect(fieldError(byLabel(c, "Confirmation code"))).toBe("Error: Confirmation code cannot be empty"),
    );
    type(byLabel(c, "Confirmation code"), "000000");
    button(c, "Confirm").click();
    await waitFor(() =>
      expect(fieldError(byLabel(c, "Confirmation code"))).toBe(
        "Error: That code is not correct. Check the e-mail we sent and try again.",
      ),
    );
    button(c, "Send a new code").click();
    await waitFor(() =>
      expect(c.querySelector('[role="status"]')?.textContent).toBe("We sent a new code to a***@e***."),
    );
    type(byLabel(c, "Confirmation code"), "123456");
    button(c, "Confirm").click();

    await expectFocusOn(await stepShown(c, "Your account"));
    // The signed-in view and the user-agent parser are chunks loaded on demand.
    await waitFor(() => expect(c.textContent).toContain("amina@example.org (verified)"));
    // Devices by name, this device first and marked, dates as the rest of the site writes them.
    const devices = await waitFor(() => {
      const named = [...c.querySelectorAll(".account-device")].map((li) => li.textContent);
      expect(named).toHaveLength(2);
      return named;
    });
    expect(devices).toEqual([
      "Chrome on Android (this device)Last used 28 November 2026Forget",
      "Chromium on LinuxLast used 1 March 2025Forget",
    ]);
    expect(c.querySelector(".account-device button")?.getAttribute("aria-label")).toBe(
      "Forget Chrome on Android (this device)",
    );
    await expectAxeClean(c);
    expect(calls.map((x) => x.method)).toEqual([
      "currentUser",
      "signUp",
      "confirmSignUp",
      "resendSignUpCode",
      "confirmSignUp",
      "autoSignIn",
      "loadAccount",
    ]);
    expect(calls[1]!.args).toEqual(["amina@example.org", "eight ch"]);
  });

  const challenges: { step: SignInStep; title: string; answer: (c: HTMLElement) => void; expected: string }[] = [
    {
      step: { step: "TOTP_CODE" },
      title: "Enter the code from your authenticator app",
      answer: (c) => type(byLabel(c, "Code"), "654321"),
      expected: "654321",
    },
    {
      step: { step: "SMS_CODE", destination: "+61***99" },
      title: "Enter the code we sent by text message",
      answer: (c) => type(byLabel(c, "Code"), "111222"),
      expected: "111222",
    },
    {
      step: { step: "NEW_PASSWORD_REQUIRED" },
      title: "Choose a new password",
      answer: (c) => type(byLabel(c, "New password"), "a fresh password"),
      expected: "a fresh password",
    },
    {
      step: { step: "MFA_SELECTION", allowed: ["SMS", "TOTP"] },
      title: "Choose how to receive your sign-in code",
      answer: (c) => byLabel(c, "Authenticator app").click(),
      expected: "TOTP",
    },
    {
      step: { step: "MFA_SETUP_SELECTION", allowed: ["TOTP", "EMAIL"] },
      title: "Choose how to set up sign-in codes",
      answer: (c) => byLabel(c, "E-mail").click(),
      expected: "EMAIL",
    },
    {
      step: {
        step: "MFA_SETUP_TOTP",
        secret: "JBSWY3DPEHPK3PXP",
        setupUri: "otpauth://totp/NZF:amina?secret=JBSWY3DPEHPK3PXP",
      },
      title: "Set up an authenticator app",
      answer: (c) => type(byLabel(c, "Code"), "246810"),
      expected: "246810",
    },
    {
      step: { step: "CUSTOM_CHALLENGE", parameters: { question: "What is 2 + 3?" } },
      title: "Answer the security question",
      answer: (c) => type(byLabel(c, "Answer"), "5"),
      expected: "5",
    },
  ];

  for (const challenge of challenges) {
    it(`signs in through the ${challenge.step.step} challenge`, async () => {
      const { adapter, calls } = fakeAdapter({
        signIn: async () => challenge.step,
        confirmSignIn: async () => ({ step: "DONE" }),
      });
      const c = start(adapter);
      await stepShown(c, "Sign in");
      type(byLabel(c, "E-mail address"), "amina@example.org");
      type(byLabel(c, "Password"), "eight ch");
      button(c, "Sign in").click();
      await expectFocusOn(await stepShown(c, challenge.title));
      await expectAxeClean(c);
      button(c, "Continue").click(); // empty answer first
      await waitFor(() => expect(c.querySelector('[aria-invalid="true"]')).not.toBeNull());
      expect(calls.filter((x) => x.method === "confirmSignIn")).toEqual([]);
      challenge.answer(c);
      button(c, "Continue").click();
      await stepShown(c, "Your account");
      expect(calls.find((x) => x.method === "confirmSignIn")?.args).toEqual([challenge.expected]);
    });
  }

  it("empty challenge responses use the earlier site's message", async () => {
    const { adapter } = fakeAdapter({ signIn: async () => ({ step: "CUSTOM_CHALLENGE", parameters: {} }) });
    const c = start(adapter);
    await stepShown(c, "Sign in");
    type(byLabel(c, "E-mail address"), "amina@example.org");
    type(byLabel(c, "Password"), "eight ch");
    button(c, "Sign in").click();
    await stepShown(c, "Answer the security question");
    button(c, "Continue").click();
    await waitFor(() => expect(fieldError(byLabel(c, "Answer"))).toBe("Error: Challenge response cannot be empty"));
  });

  it("resets a forgotten password: e-mail, code and new password", async () => {
    const { adapter, calls } = fakeAdapter({
      resetPassword: async () => ({ step: "CONFIRM_RESET_PASSWORD", destination: "a***@e***" }),
      confirmResetPassword: async () => undefined,
    });
    const c = start(adapter);
    await stepShown(c, "Sign in");
    button(c, "Forgot your password?").click();
    await expectFocusOn(await stepShown(c, "Reset your password"));
    type(byLabel(c, "E-mail address"), "amina@example.org");
    button(c, "Send code").click();
    await expectFocusOn(await stepShown(c, "Choose a new password"));
    await expectAxeClean(c);
    type(byLabel(c, "Code"), "123456");
    type(byLabel(c, "New password"), "another password");
    button(c, "Save new password").click();
    await stepShown(c, "Sign in");
    expect(c.querySelector('[role="status"]')?.textContent).toBe("Your new password is saved. Please sign in with it.");
    expect(byLabel(c, "E-mail address").value).toBe("amina@example.org");
    expect(calls.find((x) => x.method === "confirmResetPassword")?.args).toEqual([
      "amina@example.org",
      "123456",
      "another password",
    ]);
  });

  it("a session-invalidating error signs the donor out with a clear message", async () => {
    const { adapter } = fakeAdapter({
      currentUser: async () => ({ username: "amina@example.org" }),
      loadAccount: async () => {
        throw authError("NotAuthorizedException", "Access Token has been revoked");
      },
    });
    const c = start(adapter);
    await stepShown(c, "Sign in");
    expect(c.querySelector('[role="alert"]')?.textContent).toBe(
      "Error: You were signed out on all devices. Please sign in again.",
    );
    expect(c.textContent).not.toMatch(/NotAuthorizedException|\{/);
  });

  it("a wrong password is shown beside the password; sign out everywhere returns to sign-in", async () => {
    let attempts = 0;
    const { adapter, calls } = fakeAdapter({
      signIn: async () => {
        if (attempts++ === 0) throw authError("NotAuthorizedException", "Incorrect username or password.");
        return { step: "DONE" };
      },
    });
    const c = start(adapter);
    await stepShown(c, "Sign in");
    type(byLabel(c, "E-mail address"), "amina@example.org");
    type(byLabel(c, "Password"), "wrong one");
    button(c, "Sign in").click();
    await waitFor(() =>
      expect(fieldError(byLabel(c, "Password"))).toBe("Error: The e-mail address or password is not correct."),
    );
    button(c, "Sign in").click();
    await stepShown(c, "Your account");
    button(c, "Sign out of all devices").click();
    // Asked first: "No" keeps the donor signed in, nothing called.
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Sign out of all devices\? Every phone/));
    button(c, "No, stay signed in").click();
    expect(calls.some((x) => x.method === "signOut")).toBe(false);
    await waitFor(() => button(c, "Sign out of all devices").click());
    await waitFor(() => button(c, "Yes, sign out everywhere").click());
    await expectFocusOn(await stepShown(c, "Sign in"));
    expect(c.querySelector('[role="status"]')?.textContent).toBe("You are signed out on all devices.");
    expect(calls.find((x) => x.method === "signOut")?.args).toEqual([{ global: true }]);
  });

  it("a network error is plain text, and the form stays usable", async () => {
    const { adapter } = fakeAdapter({
      signIn: async () => Promise.reject(authError("NetworkError", "A network error has occurred.")),
    });
    const c = start(adapter);
    await stepShown(c, "Sign in");
    type(byLabel(c, "E-mail address"), "amina@example.org");
    type(byLabel(c, "Password"), "eight ch");
    button(c, "Sign in").click();
    await waitFor(() =>
      expect(c.querySelector('[role="alert"]')?.textContent).toMatch(
        /^Error: Network Error: the sign-in service could not be reached/,
      ),
    );
    expect(heading(c).textContent).toBe("Sign in");
  });

  it("if the auth library cannot load, says sign-in is unavailable instead of showing a dead form", async () => {
    current = mount(
      <AccountApp
        loadAdapter={() =>
          Promise.reject(Object.assign(new TypeError("Failed to fetch dynamically imported module"), {}))
        }
      />,
    );
    const c = current.container;
    await stepShown(c, "Sign-in is unavailable");
    expect(c.querySelector("form")).toBeNull();
    expect(c.textContent).toContain("Please reload the page or try again later.");
  });
});
