/**
 * Which command lines start render workers before the CLI loads (src/render/worker/worker-boot.ts): a
 * plain build does; watch mode, the webhook server, fetching without a build, deploy, the API and
 * help do not. A
 * render that uses fewer workers than were booted ends the others.
 */
import { expect, it } from "vitest";
import { bootForCommandLine, bootWorkers, endBootedWorkers } from "../../src/render/worker/worker-boot.js";

it("boots render workers for a plain build's command line only", () => {
  for (const args of [
    ["--watch"],
    ["webhook", "--port", "9000"],
    ["fetch"],
    ["--help"],
    ["build", "-h"],
    ["--version"],
    ["help", "build"],
    ["deploy", "--dry-run"],
    ["preview"],
    ["api", "--port", "8787"],
  ]) {
    expect(bootForCommandLine(args), args.join(" ")).toBe(false);
  }
  for (const args of [
    [],
    ["build"],
    ["--fetch"],
    ["--out", "public", "--site-url", "https://example.org"],
    ["build", "--sample", "--verbose"],
  ]) {
    expect(bootForCommandLine(args), args.join(" ")).toBe(true);
  }
});

it("ends the booted threads a render does not take, beyond those it keeps", async () => {
  await endBootedWorkers(0);
  bootWorkers(3);
  // One exit code per thread ended (terminate settles once the thread has stopped).
  expect(await endBootedWorkers(1)).toHaveLength(2);
  expect(await endBootedWorkers(0)).toHaveLength(1);
  expect(await endBootedWorkers(0)).toHaveLength(0);
});
