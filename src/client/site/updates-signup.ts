/**
 * The footer's sign-up for e-mail updates (templates/components/layout.tsx, `UpdatesSignUp`): shown
 * once this script runs, it posts the address, the consent words shown beside the button and the
 * honeypot to the service's POST /updates (docs/payments-api.md, "Enquiries and e-mail updates").
 * A small module the page loader (src/client/entries/page-scripts.ts) fetches when the page has the
 * sign-up, so it uses `fetch` itself rather than the payments client. What was typed stays in the field whatever
 * happens; the service's coded error (its message, for a person) is said in the status line and
 * the field is marked invalid. The same address sent again (a retry, a double click) goes with the
 * same Idempotency-Key.
 */
const SIGNUP = "[data-updates-signup]";
const TIMEOUT_MS = 15_000;

interface ServiceError {
  error?: { code?: unknown; message?: unknown };
}

const newKey = () =>
  typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function takeOver(section: HTMLElement): void {
  const form = section.querySelector("form");
  const email = form?.querySelector<HTMLInputElement>('input[name="email"]');
  const website = form?.querySelector<HTMLInputElement>('input[name="website"]');
  const consent = section.querySelector("#footer-updates-consent");
  const status = form?.querySelector<HTMLElement>("[role=status]");
  const button = form?.querySelector<HTMLButtonElement>("button[type=submit]");
  const api = section.dataset.api;
  if (!form || !email || !status || !button || !consent || !api) return;
  let sending = false;
  let keyFor = { email: "", key: "" };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (sending) return; // a second press while the first is in flight sends nothing more
    sending = true;
    button.disabled = true;
    email.removeAttribute("aria-invalid");
    status.textContent = section.dataset.sending ?? "";
    const address = email.value.trim();
    if (keyFor.email !== address) keyFor = { email: address, key: newKey() };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    try {
      const response = await fetch(`${api.replace(/\/+$/, "")}/updates`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": keyFor.key },
        body: JSON.stringify({
          email: address,
          source: "footer",
          consentText: consent.textContent?.trim() ?? "",
          website: website?.value ?? "",
        }),
        signal: controller.signal,
      });
      if (response.ok) {
        status.textContent = section.dataset.sent ?? "";
        return;
      }
      const body = (await response.json().catch(() => ({}))) as ServiceError;
      const message = typeof body.error?.message === "string" ? body.error.message : section.dataset.failed;
      if (response.status === 400) email.setAttribute("aria-invalid", "true");
      status.textContent = message ?? "";
      section.dataset.errorCode = typeof body.error?.code === "string" ? body.error.code : `http_${response.status}`;
    } catch {
      status.textContent = section.dataset.failed ?? "";
      section.dataset.errorCode = "network";
    } finally {
      clearTimeout(timer);
      sending = false;
      button.disabled = false;
    }
  });
  section.hidden = false;
}

/** Run by the page loader on every page; a page without the sign-up (no service configured) has nothing to do. */
export function enhanceUpdatesSignUp(): void {
  for (const section of document.querySelectorAll<HTMLElement>(SIGNUP)) takeOver(section);
}
