/**
 * The form's validation (src/payments/validate.ts, shared with the backend) is not needed to paint
 * the form: it arrives as a chunk of its own when the donor first reaches into the form (focus, a
 * key, a tap) and is awaited by the first check that needs it, so the form's up-front code stays
 * within its budget (bench/donation.ts). One load per page; a failed load is tried again next time.
 */
type Validation = typeof import("../../payments/validate.js");

let loading: Promise<Validation> | null = null;

export function loadValidation(): Promise<Validation> {
  loading ??= import("../../payments/validate.js").catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
