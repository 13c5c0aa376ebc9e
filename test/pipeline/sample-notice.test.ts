/**
 * "building the bundled sample content…" is said by the first build of a builder (a watch session,
 * the webhook server) only, not again on every rebuild; a new builder (a new process) says it again.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createFixture, type Fixture } from "../support/build-fixture.js";

let fixture: Fixture | undefined;
afterAll(async () => fixture?.cleanup());

const notices = (f: Fixture) =>
  f.logger.lines.filter((l) => l.message.startsWith("building the bundled sample content")).length;

describe("the sample notice", () => {
  it("is said once per builder, however many builds follow", async () => {
    fixture = await createFixture({ sample: true });
    await fixture.run();
    expect(notices(fixture)).toBe(1);
    await fixture.run();
    await fixture.run();
    expect(notices(fixture)).toBe(1);
  }, 120_000);
});
