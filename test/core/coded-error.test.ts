import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, NzfAggregateError, NzfError } from "../../src/core/errors.js";

// Browser code makes errors from src/core/coded-error.ts alone; on the server, errors.ts has handed
// it the catalogue, so every error still carries its code's hint and kind.
describe("coded errors on the server", () => {
  it("carry the catalogue's hint and kind", () => {
    const error = new NzfError("DEPLOY_UPLOAD_FAILED", "three files were not uploaded");
    expect(error.hint).toBe(ERROR_CATALOGUE.DEPLOY_UPLOAD_FAILED.hint);
    expect(error.kind).toBe("input");
    expect(new NzfError("INTERNAL", "an invariant broke").kind).toBe("bug");
  });

  it("keep a sharper hint given where they are made", () => {
    expect(new NzfError("DOCUMENT_INVALID", "bad", { hint: "Fill in the price." }).hint).toBe("Fill in the price.");
  });

  it("take the one failure's hint when a stage collects one", () => {
    const one = new NzfError("ROUTE_COLLISION", "two documents at /a/");
    expect(new NzfAggregateError("plan", [one]).hint).toBe(ERROR_CATALOGUE.ROUTE_COLLISION.hint);
  });
});
