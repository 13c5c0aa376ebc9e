/**
 * The servers' slow-client limits as the slow-client tests run them: a test file mocks
 * src/server/server-limits.ts with this module, shortens the figures for one test (`shorten`) and
 * puts them back after it (`restoreServerLimits`); the servers read them when they start.
 *
 *   vi.mock("../../src/server/server-limits.js", () => import("../support/shortened-server-limits.js"));
 */
import { vi } from "vitest";
import type * as ServerLimitsModule from "../../src/server/server-limits.js";
import type { ServerLimits } from "../../src/server/server-limits.js";

const production = (await vi.importActual<typeof ServerLimitsModule>("../../src/server/server-limits.js"))
  .SERVER_LIMITS;

/** What the mocked module gives the servers. */
export const SERVER_LIMITS: ServerLimits = { ...production };

export function shorten(figures: Partial<ServerLimits>): void {
  Object.assign(SERVER_LIMITS, figures);
}

export function restoreServerLimits(): void {
  Object.assign(SERVER_LIMITS, production);
}
