/**
 * Raw HTTP over a `net` socket on loopback, for requests no HTTP client will send (bad request
 * lines, broken headers): writes the bytes and reads the status line of the answer. A request the
 * server is still waiting on (a body shorter than announced) is half-closed after `endAfterMs`, as a
 * client that gives up would.
 */
import { connect } from "node:net";

export type RawStatus = number | "closed" | "timeout";

/** Sends `bytes` and resolves with the answer's status, "closed" when the server closed without one, or "timeout". */
export function rawRequest(
  port: number,
  bytes: string | Buffer,
  timeoutMs = 2000,
  endAfterMs = 200,
): Promise<RawStatus> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let received = "";
    let done = false;
    const finish = (status: RawStatus) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(endTimer);
      socket.destroy();
      resolve(status);
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    let endTimer: NodeJS.Timeout | undefined;
    socket.on("connect", () => {
      socket.write(bytes);
      endTimer = setTimeout(() => socket.end(), endAfterMs);
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      // 100 Continue is an interim answer: wait for the final one.
      const final = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, "");
      const match = /^HTTP\/\d\.\d (\d{3})[^\r\n]*\r\n[\s\S]*?\r\n\r\n/.exec(final);
      if (match) finish(Number(match[1]));
    });
    socket.on("error", () => finish("closed"));
    socket.on("close", () => finish("closed"));
  });
}

/** A small seeded generator (mulberry32), so a failing fuzz case can be replayed from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
