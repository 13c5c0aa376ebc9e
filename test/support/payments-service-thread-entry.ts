/**
 * The worker side of payments-service-thread.ts: starts the test payments service (with the Stripe
 * stand-in) in this thread, whose globals are Node's own, and answers the test's calls by message.
 */
import { parentPort, workerData } from "node:worker_threads";
import { startTestPaymentsService } from "./payments-service.js";

const port = parentPort!;
const service = await startTestPaymentsService(workerData ?? {});
const calls: Record<string, () => unknown> = {
  requests: () => service.requests,
  donationCount: () => service.donationCount(),
  stripeRequests: () => service.stripe.requests(),
  reset: () => service.reset(),
  stop: async () => {
    await service.stop();
    setImmediate(() => port.close());
  },
};
port.on("message", async ({ id, call }: { id: number; call: string }) => {
  try {
    port.postMessage({ id, result: await calls[call]!() });
  } catch (error) {
    port.postMessage({ id, error: (error as Error).stack ?? String(error) });
  }
});
port.postMessage({ id: 0, result: { url: service.url, port: service.port } });
