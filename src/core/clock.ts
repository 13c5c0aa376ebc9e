/**
 * "Now" for the payments service and the donor account API: the day a gift is made and charged,
 * the dates on receipts and notices, when a never-paid donation expires, when a mail is retried.
 * Every part of both services asks here rather than `new Date()`, so all of them agree on one
 * clock; it is the system's, and nothing configures it.
 */
export function now(): Date {
  return new Date();
}
