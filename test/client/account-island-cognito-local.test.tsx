// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost/account/"}
/**
 * The whole island in a DOM: AccountIsland lazily loads the real Amplify adapter, which stores its
 * tokens in cookies (CookieStorage: 365 days, path /, secure) and talks to cognito-local through
 * the test bridge. Sign up → confirm → auto sign-in → account → sign out → sign in again.
 * The page is http://localhost (a secure context, like in browsers, so Secure cookies stick): an
 * https page could not call the plain-http emulator (mixed content).
 * (The Chromium end-to-end test repeats this against the built /account page.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRoot, type Root } from "react-dom/client";
import AccountIsland from "../../src/client/islands/account.js";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { startCognitoLocal, type CognitoLocal } from "../support/cognito-local.js";

vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

async function waitFor<T>(check: () => T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((ok) => setTimeout(ok, 20));
    }
  }
}

function input(container: HTMLElement, label: string): HTMLInputElement {
  const l = [...container.querySelectorAll("label")].find((x) => x.textContent === label)!;
  return container.querySelector<HTMLInputElement>(`#${CSS.escape(l.htmlFor)}`)!;
}
function press(container: HTMLElement, text: string): void {
  [...container.querySelectorAll("button")].find((b) => b.textContent === text)!.click();
}
async function step(container: HTMLElement, title: string): Promise<void> {
  await waitFor(() => expect(container.querySelector("h2")?.textContent).toBe(title));
}

let cognito: CognitoLocal;
let root: Root | undefined;
let container: HTMLElement;
beforeAll(async () => {
  cognito = await startCognitoLocal();
});
afterAll(async () => {
  await cognito?.stop();
});
afterEach(() => {
  root?.unmount();
  container?.remove();
});

function mountIsland() {
  const auth = resolveAuthConfig({
    userPoolId: cognito.userPoolId,
    userPoolClientId: cognito.clientId,
    userPoolEndpoint: cognito.endpoint,
    authFlowType: "USER_PASSWORD_AUTH",
  });
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  root.render(<AccountIsland auth={auth} />);
}

const tokenCookies = () =>
  document.cookie
    .split("; ")
    .filter((c) => /^CognitoIdentityServiceProvider\.[^=]+\.(accessToken|idToken|refreshToken)=/.test(c));

describe("account island with aws-amplify and cognito-local", () => {
  it("signs up, confirms, is signed in automatically, and the session survives a reload", async () => {
    mountIsland();
    await step(container, "Sign in");
    press(container, "Create an account");
    await step(container, "Create an account");
    input(container, "E-mail address").value = "fatima@example.org";
    input(container, "Password").value = "donate well";
    press(container, "Create account");
    await step(container, "Confirm your e-mail address");
    input(container, "Confirmation code").value = cognito.code;
    press(container, "Confirm");
    await step(container, "Your account");
    expect(container.textContent).toContain("fatima@example.org");
    expect(tokenCookies()).toHaveLength(3);

    // A new page load (new island) finds the session in the cookies.
    root!.unmount();
    container.remove();
    mountIsland();
    await step(container, "Your account");

    press(container, "Sign out");
    await step(container, "Sign in");
    expect(container.querySelector('[role="status"]')?.textContent).toBe("You are signed out.");
    expect(tokenCookies()).toEqual([]);

    input(container, "E-mail address").value = "fatima@example.org";
    input(container, "Password").value = "donate well";
    press(container, "Sign in");
    await step(container, "Your account");
    press(container, "Sign out of all devices");
    await waitFor(() => expect(container.textContent).toContain("Yes, sign out everywhere"));
    press(container, "Yes, sign out everywhere");
    await step(container, "Sign in");
    expect(tokenCookies()).toEqual([]);
  });
});
