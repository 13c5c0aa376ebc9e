/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation, as the
 * official SDK writes it (`metadata[fund]=zakat`, `items[0][price_data][unit_amount]=5000`,
 * `expand[0]=latest_invoice`) and as Stripe.js and curl write it (`expand[]=customer`). GET and
 * DELETE carry the same encoding in the query string.
 *
 * The parse is bounded (pairs, depth, key and value length, list length) so a hostile body costs
 * little, and keys such as `__proto__` are plain data (objects have no prototype).
 */
import { StripeApiError } from "./errors.js";

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

export const FORM_LIMITS = {
  pairs: 2000,
  depth: 8,
  keyLength: 400,
  valueLength: 20_000,
  listLength: 250,
};

const bad = (message: string, param?: string) => new StripeApiError(400, "invalid_request_error", message, { param });

/** Splits `a[b][0][]` into ["a", "b", "0", ""]; null when the brackets do not match. */
function segments(key: string): string[] | null {
  const open = key.indexOf("[");
  if (open === -1) return [key];
  const parts = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const m = /^\[([^[\]]*)\]/.exec(rest);
    if (!m) return null;
    parts.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return parts;
}

const blank = (): FormObject => Object.create(null) as FormObject;

/** Objects whose keys are all list indices become lists, in index order. */
function finish(value: FormValue): FormValue {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(finish);
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^(0|[1-9]\d{0,3})$/.test(k))) {
    if (keys.length > FORM_LIMITS.listLength) throw bad(`A list may have at most ${FORM_LIMITS.listLength} entries.`);
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => finish(value[String(k)]!));
  }
  const out = blank();
  for (const k of keys) out[k] = finish(value[k]!);
  return out;
}

export function parseForm(text: string): FormObject {
  const root = blank();
  if (text.length === 0) return root;
  const params = new URLSearchParams(text);
  let count = 0;
  for (const [key, value] of params) {
    if (++count > FORM_LIMITS.pairs) throw bad(`A request may carry at most ${FORM_LIMITS.pairs} parameters.`);
    if (key.length === 0) continue;
    if (key.length > FORM_LIMITS.keyLength) throw bad(`Parameter name too long: ${key.slice(0, 60)}…`);
    if (value.length > FORM_LIMITS.valueLength)
      throw bad(`The value of ${key.slice(0, 60)} is longer than ${FORM_LIMITS.valueLength} characters.`, key);
    const parts = segments(key);
    if (!parts || parts[0] === "") throw bad(`Invalid parameter name: ${key.slice(0, 60)}`);
    if (parts.length > FORM_LIMITS.depth) throw bad(`Parameter nested too deeply: ${key.slice(0, 60)}`);
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < parts.length; i++) {
      const last = i === parts.length - 1;
      const part = parts[i]!;
      if (Array.isArray(node)) {
        // `a[]` appends; `a[][b]` is not something Stripe's clients send.
        if (part !== "" || !last) throw bad(`Invalid parameter name: ${key.slice(0, 60)}`);
        if (node.length >= FORM_LIMITS.listLength)
          throw bad(`A list may have at most ${FORM_LIMITS.listLength} entries.`, parts[0]);
        node.push(value);
        break;
      }
      if (part === "") throw bad(`Invalid parameter name: ${key.slice(0, 60)}`);
      if (last) {
        node[part] = value;
        break;
      }
      const nextIsAppend = parts[i + 1] === "";
      let child: FormValue | undefined = node[part];
      if (nextIsAppend) {
        if (!Array.isArray(child)) child = node[part] = [];
      } else if (child === undefined || typeof child === "string" || Array.isArray(child)) {
        child = node[part] = blank();
      }
      node = child as FormObject | FormValue[];
    }
  }
  return finish(root) as FormObject;
}
