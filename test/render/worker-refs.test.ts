import { describe, expect, it } from "vitest";
import { holdWorker, releaseWorker } from "../../src/render/worker-refs.js";

/** A worker that records whether it would keep the process alive. */
function fakeWorker() {
  const worker = { referenced: false, ref: () => (worker.referenced = true), unref: () => (worker.referenced = false) };
  return worker;
}

describe("a render thread keeps the process alive while any request waits on it", () => {
  it("stays referenced until the last of several requests lets go", () => {
    const worker = fakeWorker();
    holdWorker(worker); // the warm-up's request, whose answer nobody may wait for
    holdWorker(worker); // the render
    expect(worker.referenced).toBe(true);
    releaseWorker(worker); // the warm-up's answer arrives mid-render
    expect(worker.referenced).toBe(true);
    releaseWorker(worker); // the render is done
    expect(worker.referenced).toBe(false);
  });

  it("counts each worker apart, and holds again after being let go", () => {
    const [a, b] = [fakeWorker(), fakeWorker()];
    holdWorker(a);
    holdWorker(b);
    releaseWorker(a);
    expect([a.referenced, b.referenced]).toEqual([false, true]);
    holdWorker(a);
    expect(a.referenced).toBe(true);
  });
});
