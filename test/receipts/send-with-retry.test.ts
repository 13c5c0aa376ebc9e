import { afterEach, describe, expect, it, vi } from "vitest";
import { createMailer, type Mailer } from "../../src/receipts/mailer.js";
import { receiptMessage } from "../../src/receipts/message.js";
import { type SendOutcome, sendWithRetry } from "../../src/receipts/send-with-retry.js";
import { zakatReceipt } from "../support/receipt-fixture.js";

const message = receiptMessage(zakatReceipt, { from: "receipts@nzf.org.au" });

/** A mailer that fails with the given errors in turn, then succeeds; `at`: the clock at each try. */
function flaky(errors: unknown[]): Mailer & { tries: number; at: number[] } {
  const mailer = {
    tries: 0,
    at: [] as number[],
    async send() {
      mailer.at.push(Date.now());
      const error = errors[mailer.tries++];
      if (error !== undefined) throw error;
      return { messageId: message.messageId, response: "250 OK" };
    },
    close() {},
  };
  return mailer;
}

/** The send on a fake clock: its pauses between tries pass at once. */
async function onFakeClock(send: () => Promise<SendOutcome>): Promise<SendOutcome> {
  vi.useFakeTimers();
  const outcome = send();
  await vi.runAllTimersAsync();
  return outcome;
}
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const smtpError = (responseCode: number) => Object.assign(new Error(`${responseCode} refused`), { responseCode });

describe("sending a receipt", () => {
  it("tries again after a temporary failure, with growing pauses", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const mailer = flaky([Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), smtpError(421)]);
    const outcome = await onFakeClock(() => sendWithRetry(mailer, message));
    expect(outcome).toEqual({ sent: true, attempts: 3, messageId: message.messageId });
    const [first, second, third] = mailer.at;
    expect([second! - first!, third! - second!]).toEqual([1000, 2000]);
  });

  it("gives up after the last try, saying it may be tried later", async () => {
    const mailer = flaky(Array.from({ length: 10 }, () => smtpError(451)));
    const outcome = await onFakeClock(() => sendWithRetry(mailer, message, { attempts: 3 }));
    expect(outcome).toMatchObject({ sent: false, attempts: 3, retryable: true });
    expect(mailer.tries).toBe(3);
  });

  it("does not repeat a permanent refusal", async () => {
    const mailer = flaky([smtpError(550), smtpError(550)]);
    const outcome = await onFakeClock(() => sendWithRetry(mailer, message));
    expect(outcome).toMatchObject({ sent: false, attempts: 1, retryable: false });
    expect(outcome.sent === false && outcome.error).toContain("550 refused");
  });

  it("treats SES throttling as temporary and a bad request as permanent", async () => {
    const ses = (status: number, name: string) =>
      Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
    expect(
      await onFakeClock(() => sendWithRetry(flaky([ses(429, "TooManyRequestsException")]), message)),
    ).toMatchObject({
      sent: true,
      attempts: 2,
    });
    expect(await onFakeClock(() => sendWithRetry(flaky([ses(400, "MessageRejected")]), message))).toMatchObject({
      sent: false,
      retryable: false,
    });
  });

  it("with no transport set, sends nothing and does not retry", async () => {
    const outcome = await sendWithRetry(createMailer({ kind: "none" }), message);
    expect(outcome).toMatchObject({ sent: false, attempts: 1, retryable: false });
  });

  it("an SMTP server that is not there fails without throwing", async () => {
    // Port 9 on loopback (discard) is closed on this machine: the connection is refused at once,
    // then again after the real pause (1 to 1.5 s; the clock is not faked under a real connection).
    const mailer = createMailer({ kind: "smtp", url: "smtp://127.0.0.1:9" });
    const outcome = await sendWithRetry(mailer, message, { attempts: 2 });
    mailer.close();
    expect(outcome).toMatchObject({ sent: false, attempts: 2, retryable: true });
  });
});
