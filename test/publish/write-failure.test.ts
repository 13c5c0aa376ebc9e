import { describe, expect, it } from "vitest";
import { NzfError } from "../../src/core/errors.js";
import { writeFailureOf } from "../../src/publish/write-failure.js";

function systemError(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: something, open '${path}'`), { code, path });
}

describe("writeFailureOf", () => {
  it.each([
    ["ENOSPC", "no space left on the disk"],
    ["EACCES", "permission denied"],
    ["EIO", "the disk reported an input/output error"],
    ["EROFS", "the file system is read-only"],
  ])("turns %s into OUTPUT_WRITE_FAILED naming the file and the reason", (code, reason) => {
    const error = writeFailureOf(systemError(code, "/site.versions/v2-x/index.html"), "/site");
    expect(error).toBeInstanceOf(NzfError);
    expect((error as NzfError).code).toBe("OUTPUT_WRITE_FAILED");
    expect((error as NzfError).message).toContain("/site.versions/v2-x/index.html");
    expect((error as NzfError).message).toContain(`${code}: ${reason}`);
    expect((error as NzfError).message).toContain("the previous site is still published");
  });

  it("names the destination of a failed copy, and leaves other errors alone", () => {
    const copy = Object.assign(systemError("ENOSPC", "/cache/a.jpg"), { dest: "/site.versions/v3/_images/a.jpg" });
    expect((writeFailureOf(copy, "/site") as NzfError).subject).toBe("/site.versions/v3/_images/a.jpg");
    const coded = new NzfError("CACHE_UNUSABLE", "cache");
    expect(writeFailureOf(coded, "/site")).toBe(coded);
    const missing = systemError("ENOENT", "/x");
    expect(writeFailureOf(missing, "/site")).toBe(missing);
    expect(writeFailureOf("text", "/site")).toBe("text");
  });
});
