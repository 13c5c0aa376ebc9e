import { describe, expect, it } from "vitest";
import { cookieNames, invalidatingSessionOn, singlePending, storedSessionKeys } from "../../src/auth/session-guard.js";

describe("singlePending", () => {
  it("refuses a second call while the first is in flight, and allows one after it settles", async () => {
    let release!: () => void;
    const run = singlePending(async (n: number) => {
      await new Promise<void>((ok) => (release = ok));
      return n * 2;
    });
    const first = run(1);
    await expect(run(2)).rejects.toMatchObject({ name: "SignInInProgress" });
    release();
    expect(await first).toBe(2);
    const third = run(3);
    release();
    expect(await third).toBe(6);
  });

  it("a failed call frees the slot", async () => {
    const run = singlePending(async (fail: boolean) => {
      if (fail) throw new Error("no");
      return "ok";
    });
    await expect(run(true)).rejects.toThrow("no");
    expect(await run(false)).toBe("ok");
  });
});

describe("invalidatingSessionOn", () => {
  it("clears only for session-invalidating errors and always rethrows the original", async () => {
    let cleared = 0;
    const clear = async () => void cleared++;
    const revoked = Object.assign(new Error("Refresh Token has expired"), { name: "NotAuthorizedException" });
    await expect(invalidatingSessionOn(() => Promise.reject(revoked), clear)).rejects.toBe(revoked);
    expect(cleared).toBe(1);
    const other = Object.assign(new Error("Rate exceeded"), { name: "TooManyRequestsException" });
    await expect(invalidatingSessionOn(() => Promise.reject(other), clear)).rejects.toBe(other);
    expect(cleared).toBe(1);
    // A failing clean-up does not hide the original error.
    await expect(
      invalidatingSessionOn(
        () => Promise.reject(revoked),
        () => Promise.reject(new Error("storage")),
      ),
    ).rejects.toBe(revoked);
  });
});

describe("stored session keys", () => {
  it("selects this app client's Amplify keys from the cookie header", () => {
    const header =
      "nzf-preview=1; CognitoIdentityServiceProvider.abc123.amina%40example.org.idToken=x; CognitoIdentityServiceProvider.abc123.LastAuthUser=y; CognitoIdentityServiceProvider.other.LastAuthUser=z";
    const names = cookieNames(header);
    expect(names).toEqual([
      "nzf-preview",
      "CognitoIdentityServiceProvider.abc123.amina@example.org.idToken",
      "CognitoIdentityServiceProvider.abc123.LastAuthUser",
      "CognitoIdentityServiceProvider.other.LastAuthUser",
    ]);
    expect(storedSessionKeys(names, "abc123")).toEqual(names.slice(1, 3));
  });
});
