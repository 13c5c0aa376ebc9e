import { describe, expect, it } from "vitest";
import { repositoryNameError, validateRepositoryName } from "../../src/preview/repository-name.js";
import { isValidRepositoryName } from "../../src/core/repository-name.js";

describe("repository name", () => {
  const valid = ["nzf2020", "ab-c", "abcd", "a--b", "NZF1", "1234"];
  const invalid = ["abc", "-abc", "abc-", "a_bc", "ab c", "", "nzf2020.prismic.io", "ab-", "é-abc"];

  for (const name of valid) {
    it(`accepts ${JSON.stringify(name)}`, () => {
      expect(isValidRepositoryName(name)).toBe(true);
      expect(repositoryNameError(name)).toBeNull();
      expect(validateRepositoryName(name)).toBe(name);
    });
  }
  for (const name of invalid) {
    it(`rejects ${JSON.stringify(name)}`, () => {
      expect(isValidRepositoryName(name)).toBe(false);
      expect(repositoryNameError(name)).toBe("An invalid repository name was given.");
      expect(() => validateRepositoryName(name)).toThrow("An invalid repository name was given.");
    });
  }
  it("rejects a value that is not a string", () => {
    expect(repositoryNameError(undefined)).toBe("An invalid repository name was given.");
    expect(repositoryNameError(12345)).toBe("An invalid repository name was given.");
  });
});

describe("the build's configuration uses the same rule", async () => {
  const { resolveConfig } = await import("../../src/core/config.js");
  it("accepts what the preview accepts and rejects what it rejects, with the plugin's message", () => {
    expect(resolveConfig({ repository: "nzf-test", root: "/tmp" }, {}).repository).toBe("nzf-test");
    for (const name of ["abc", "-abc", "abc-", "ab_c"]) {
      expect(isValidRepositoryName(name)).toBe(false);
      expect(() => resolveConfig({ repository: name, root: "/tmp" }, {})).toThrow(
        "An invalid repository name was given.",
      );
    }
  });
});
