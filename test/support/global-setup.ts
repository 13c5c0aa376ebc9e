/**
 * Runs once before any test file: finds (or unpacks) Chromium and hands its path to every test
 * worker in CHROMIUM_PATH, which the workers inherit.
 */
import { resolveChromium } from "./chromium-path.js";

export default async function setup(): Promise<void> {
  process.env.CHROMIUM_PATH = await resolveChromium();
}
