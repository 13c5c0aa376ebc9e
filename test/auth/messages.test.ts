import { describe, expect, it } from "vitest";
import {
  SESSION_INVALIDATING_MESSAGES,
  describeAuthError,
  invalidatesSession,
  validateChallengeResponse,
  validateCode,
  validateEmail,
  validatePassword,
} from "../../src/auth/messages.js";

function authError(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

describe("field validation uses the earlier site's sentences", () => {
  it("empty fields", () => {
    expect(validateEmail("  ")).toBe("Username cannot be empty");
    expect(validatePassword("")).toBe("Password cannot be empty");
    expect(validateCode(" ")).toBe("Confirmation code cannot be empty");
    expect(validateChallengeResponse("")).toBe("Challenge response cannot be empty");
  });
  it("password minimum 8, no character classes", () => {
    expect(validatePassword("abcdefg")).toMatch(/at least 8 characters/);
    expect(validatePassword("abcdefgh")).toBeNull();
    expect(validatePassword("        ")).toBeNull();
  });
  it("e-mail shape", () => {
    expect(validateEmail("donor")).toMatch(/e-mail address/);
    expect(validateEmail("donor@example.org")).toBeNull();
  });
});

describe("describeAuthError", () => {
  it("marks each session-invalidating message and nothing else", () => {
    expect(SESSION_INVALIDATING_MESSAGES).toEqual([
      "Access Token has been revoked",
      "Refresh Token has been revoked",
      "User is disabled.",
      "User does not exist.",
      "Refresh Token has expired",
      "Password reset required for the user",
    ]);
    for (const message of SESSION_INVALIDATING_MESSAGES) {
      const name = message.startsWith("User does not")
        ? "UserNotFoundException"
        : message.startsWith("Password")
          ? "PasswordResetRequiredException"
          : "NotAuthorizedException";
      const donor = describeAuthError(authError(name, message));
      expect(donor.invalidatesSession, message).toBe(true);
      expect(donor.message).not.toContain("Authentication Error");
    }
    expect(invalidatesSession(authError("NotAuthorizedException", "Incorrect username or password."))).toBe(false);
    expect(invalidatesSession(authError("NetworkError", "A network error has occurred."))).toBe(false);
  });

  it("wrong password is about the password field, not a session", () => {
    const donor = describeAuthError(authError("NotAuthorizedException", "Incorrect username or password."));
    expect(donor).toEqual({
      message: "The e-mail address or password is not correct.",
      field: "password",
      invalidatesSession: false,
    });
  });

  it("maps names from Amplify errors and from the wire format", () => {
    expect(
      describeAuthError(authError("CodeMismatchException", "Invalid verification code provided, please try again."))
        .field,
    ).toBe("code");
    expect(
      describeAuthError({ __type: "com.amazonaws.cognito#UsernameExistsException", message: "User already exists" })
        .next,
    ).toBe("sign-in");
    expect(describeAuthError(authError("TooManyRequestsException", "Rate exceeded")).message).toMatch(
      /Too many attempts/,
    );
    expect(describeAuthError(authError("NetworkError", "A network error has occurred.")).message).toMatch(
      /^Network Error: /,
    );
    expect(describeAuthError(new TypeError("Failed to fetch")).message).toMatch(/^Network Error: /);
    expect(describeAuthError(authError("UserNotConfirmedException", "User is not confirmed.")).next).toBe(
      "confirm-sign-up",
    );
    expect(describeAuthError(authError("EmptySignInUsername", "username is required to signIn")).message).toBe(
      "Username cannot be empty",
    );
  });

  it("never shows an unknown raw message, stack or JSON", () => {
    const raw = authError("InternalErrorException", '{"__type":"InternalErrorException","stack":"at x (y.js:1)"}');
    const donor = describeAuthError(raw);
    expect(donor.message).toBe("Authentication Error: something went wrong. Please try again in a moment.");
    expect(describeAuthError(undefined).message).toMatch(/^Authentication Error/);
  });

  it("on the sign-in form, policy and not-found errors read as a wrong password", () => {
    expect(
      describeAuthError(authError("InvalidPasswordException", "Password does not conform to policy"), "sign-in")
        .message,
    ).toBe("The e-mail address or password is not correct.");
    expect(describeAuthError(authError("UserNotFoundException", "User not found"), "sign-in").message).toBe(
      "The e-mail address or password is not correct.",
    );
    expect(
      describeAuthError(authError("InvalidPasswordException", "Password does not conform to policy"), "sign-up").field,
    ).toBe("password");
    // A dead session still counts as one, whatever the form.
    expect(
      describeAuthError(authError("UserNotFoundException", "User does not exist."), "sign-in").invalidatesSession,
    ).toBe(true);
  });
});

describe("the catalogue's remaining messages reach the donor, with what to do", () => {
  it.each([
    ["Error creating account", "Error creating account: the sign-in service did not create it.", undefined],
    ["No Access token available", "No Access token available: your sign-in on this device has ended.", "sign-in"],
    [
      "Failed to get the session because the user is empty",
      "Failed to get the session because the user is empty: you are signed out on this device.",
      "sign-in",
    ],
  ])("%s", (thrown, starts, next) => {
    const said = describeAuthError(Object.assign(new Error(thrown), { name: "AuthError" }), "account");
    expect(said.message.startsWith(starts)).toBe(true);
    expect(said.next).toBe(next);
  });
});
