/**
 * Threads the render service boots before their code is known (src/render/worker/worker-boot.ts): a
 * render that uses fewer workers than were booted ends the others.
 */
import { expect, it } from "vitest";
import { bootWorkers, endBootedWorkers } from "../../src/render/worker/worker-boot.js";

it("ends the booted threads a render does not take, beyond those it keeps", async () => {
  await endBootedWorkers(0);
  bootWorkers(3);
  // One exit code per thread ended (terminate settles once the thread has stopped).
  expect(await endBootedWorkers(1)).toHaveLength(2);
  expect(await endBootedWorkers(0)).toHaveLength(1);
  expect(await endBootedWorkers(0)).toHaveLength(0);
});
