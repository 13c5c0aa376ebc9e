/** The payments module's public surface: contract types, shared rules, and the browser client. */
export * from "./types.js";
export * from "./money.js";
export * from "./fees.js";
export * from "./schedules.js";
export * from "./fund-rules.js";
export * from "./validate.js";
export * from "./pricing.js";
export * from "./errors.js";
export * from "./idempotency.js";
export * from "./client.js";
export { canonicalJson } from "./canonical-json.js";
