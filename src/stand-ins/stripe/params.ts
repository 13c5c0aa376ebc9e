/**
 * Reads one endpoint's parameters the way Stripe checks them: each endpoint names what it takes,
 * and anything else is refused (`parameter_unknown`), a wrong type is refused with Stripe's code
 * (`parameter_invalid_integer`, ...), a missing one with `parameter_missing`. So a typo in the
 * service fails here as it would against Stripe, instead of being silently ignored.
 */
import { invalidRequest, missingParam, unknownParam } from "./errors.js";
import type { FormObject, FormValue } from "./form.js";

export class Params {
  private readonly used = new Set<string>();

  constructor(
    private readonly raw: FormObject,
    /** `items[0]` for a nested reader: error params are named in full, as Stripe names them. */
    readonly prefix = "",
  ) {}

  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  /** The raw value, marked as read. */
  value(key: string): FormValue | undefined {
    this.used.add(key);
    return this.raw[key];
  }

  string(key: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.value(key);
    if (v === undefined) {
      if (opts.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (typeof v !== "string") throw invalidRequest(`Invalid string: ${this.name(key)}`, this.name(key));
    if (opts.required && v === "")
      throw invalidRequest(
        `You passed an empty string for '${this.name(key)}'. We assume empty values are an attempt to unset a parameter; however '${this.name(key)}' cannot be unset. You should remove '${this.name(key)}' from your request or supply a non-empty value.`,
        this.name(key),
        "parameter_invalid_empty",
      );
    if (v.length > (opts.max ?? 5000))
      throw invalidRequest(
        `Invalid ${this.name(key)}: must be at most ${opts.max ?? 5000} characters`,
        this.name(key),
        "string_too_long",
      );
    return v;
  }

  /** An empty string unsets (null), as Stripe reads `description=`. */
  nullableString(key: string, max?: number): string | null | undefined {
    const v = this.string(key, { max });
    return v === "" ? null : v;
  }

  int(key: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = this.string(key, { required: opts.required });
    if (v === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(v))
      throw invalidRequest(`Invalid integer: ${v.slice(0, 40)}`, this.name(key), "parameter_invalid_integer");
    const n = Number(v);
    if (opts.min !== undefined && n < opts.min)
      throw invalidRequest(
        `This value must be greater than or equal to ${opts.min}.`,
        this.name(key),
        "parameter_invalid_integer",
      );
    if (opts.max !== undefined && n > opts.max)
      throw invalidRequest(
        `This value must be less than or equal to ${opts.max}.`,
        this.name(key),
        "parameter_invalid_integer",
      );
    return n;
  }

  bool(key: string): boolean | undefined {
    const v = this.string(key);
    if (v === undefined) return undefined;
    if (v === "true") return true;
    if (v === "false") return false;
    throw invalidRequest(`Invalid boolean: ${v.slice(0, 40)}`, this.name(key));
  }

  oneOf<T extends string>(key: string, values: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    const v = this.string(key, opts);
    if (v === undefined) return undefined;
    if (!values.includes(v as T))
      throw invalidRequest(
        `Invalid ${this.name(key)}: must be one of ${values.join(", ")}`,
        this.name(key),
        "parameter_invalid_string",
      );
    return v as T;
  }

  /** A nested hash; `key=` (empty) is an unset and reads as null. */
  object(key: string, opts: { required?: boolean } = {}): Params | null | undefined {
    const v = this.value(key);
    if (v === undefined) {
      if (opts.required) throw missingParam(this.name(key));
      return undefined;
    }
    if (v === "") return null;
    if (typeof v === "string" || Array.isArray(v))
      throw invalidRequest(`Invalid object: ${this.name(key)} must be a hash`, this.name(key));
    return new Params(v, this.name(key));
  }

  /** A list of hashes (`items[0][price]=...`). */
  objects(key: string): Params[] | undefined {
    const v = this.value(key);
    if (v === undefined || v === "") return undefined;
    if (!Array.isArray(v)) throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
    return v.map((item, i) => {
      if (typeof item === "string" || Array.isArray(item))
        throw invalidRequest(`Invalid object: ${this.name(key)}[${i}] must be a hash`, `${this.name(key)}[${i}]`);
      return new Params(item, `${this.name(key)}[${i}]`);
    });
  }

  /** A list of strings (`expand[0]=a`, `expand[]=a`). */
  strings(key: string): string[] | undefined {
    const v = this.value(key);
    if (v === undefined || v === "") return undefined;
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string"))
      throw invalidRequest(`Invalid array: ${this.name(key)}`, this.name(key));
    return v as string[];
  }

  /**
   * Metadata as Stripe takes it: up to 50 keys, keys up to 40 characters without brackets, values
   * up to 500 characters; `metadata[k]=` removes k, `metadata=` removes all. Returns the new
   * metadata given the current one.
   */
  metadata(key: string, current: Record<string, string> = {}): Record<string, string> | undefined {
    const v = this.value(key);
    if (v === undefined) return undefined;
    if (v === "") return {};
    const name = this.name(key);
    if (typeof v === "string" || Array.isArray(v)) throw invalidRequest(`Invalid object: ${name} must be a hash`, name);
    const next: Record<string, string> = { ...current };
    for (const [k, value] of Object.entries(v)) {
      if (typeof value !== "string")
        throw invalidRequest(`Invalid value for ${name}[${k.slice(0, 40)}]: must be a string`, `${name}[${k}]`);
      if (k.length > 40)
        throw invalidRequest(
          `Invalid metadata: metadata keys must be at most 40 characters long. The key ${k.slice(0, 60)} is too long.`,
          name,
        );
      if (value.length > 500)
        throw invalidRequest(`Invalid metadata: metadata values must be at most 500 characters long.`, `${name}[${k}]`);
      if (value === "") delete next[k];
      else next[k] = value;
    }
    if (Object.keys(next).length > 50)
      throw invalidRequest(
        `Invalid metadata: metadata can have up to 50 keys, but you passed in ${Object.keys(next).length} keys.`,
        name,
      );
    return next;
  }

  /** Refuses anything the endpoint did not read, as Stripe does. */
  done(): void {
    for (const key of Object.keys(this.raw)) if (!this.used.has(key)) throw unknownParam(this.name(key));
  }
}
