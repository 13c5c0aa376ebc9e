/**
 * Helpers for the /account browser tests (test/browser/account*.test.ts): steps and their focus,
 * a keyboard user's Tab and Enter, and axe-core under the page's enforced CSP.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { formatViolations, loadAxe, runAxe, type AxeViolation } from "./axe.js";

export const heading = (page: Page) => page.locator(".account-step > h2");

/** Waits for a step; after a donor's action, focus must have moved to its heading. */
export async function expectStep(page: Page, title: string, options: { focused?: boolean } = {}): Promise<void> {
  await expect.poll(() => heading(page).textContent(), { timeout: 15_000 }).toBe(title);
  await expect.poll(() => page.locator(".account-step").getAttribute("aria-busy")).toBeNull();
  if (options.focused ?? true) {
    // Focus moves in an effect, after the step is painted.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.matches(".account-step > h2") ?? false), {
        message: `focus on the "${title}" heading`,
      })
      .toBe(true);
  }
}

/** axe-core under the page's enforced CSP: loaded from the page's own origin (axe.ts loadAxe). */
export async function axeUnderCsp(page: Page): Promise<AxeViolation[]> {
  await loadAxe(page);
  return runAxe(page);
}

export async function expectAxeClean(page: Page, when: string): Promise<void> {
  const violations = await axeUnderCsp(page);
  expect(violations, formatViolations(`${page.url()} (${when})`, violations)).toEqual([]);
}

export type Target = { label: string } | { button: string };

/** Presses Tab until the target has focus, like a keyboard user looking for a control. */
export async function tabTo(page: Page, target: Target): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const found = await page.evaluate((t) => {
      const el = document.activeElement as HTMLInputElement | null;
      if (!el) return false;
      if ("label" in t) return el.labels?.[0]?.textContent === t.label;
      return el.tagName === "BUTTON" && el.textContent === t.button;
    }, target);
    if (found) return;
  }
  throw new Error(`Tab never reached ${JSON.stringify(target)}`);
}

export async function typeInto(page: Page, label: string, text: string): Promise<void> {
  await tabTo(page, { label });
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

export async function pressButton(page: Page, button: string): Promise<void> {
  await tabTo(page, { button });
  await page.keyboard.press("Enter");
}

/** Creates an account in the page the donor would use (/account/), through to "Your account". */
export async function signUpOnAccountPage(
  page: Page,
  siteUrl: string,
  account: { email: string; password: string; code: string },
): Promise<void> {
  await page.goto(`${siteUrl}/account/`);
  await page.waitForSelector('[data-island="account"][data-hydrated="true"]');
  await expectStep(page, "Sign in", { focused: false });
  await pressButton(page, "Create an account");
  await expectStep(page, "Create an account");
  await typeInto(page, "E-mail address", account.email);
  await typeInto(page, "Password", account.password);
  await pressButton(page, "Create account");
  await expectStep(page, "Confirm your e-mail address");
  await typeInto(page, "Confirmation code", account.code);
  await pressButton(page, "Confirm");
  await expectStep(page, "Your account");
}
