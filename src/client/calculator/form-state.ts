/**
 * The calculator's form as the donor typed it, and how it is kept in the browser.
 *
 * A metal row keeps the text of both modes (weight and value) so switching between them loses
 * nothing; `toFormText` turns the state into the `ZakatFormText` that src/zakat parses.
 */
import { ASSET_CATEGORIES, LIABILITY_CATEGORIES } from "../../zakat/categories.js";
import type { MetalHoldingText, ZakatFormText } from "../../zakat/form.js";
import type { AmountAssetId, LiabilityId, Metal, NisabBasis, YearType } from "../../zakat/types.js";

export interface MetalRow {
  kind: "weight" | "value";
  grams: string;
  purity: string;
  purityUnit: "carat" | "thousandths";
  amount: string;
}

export interface CalcForm {
  yearType: YearType;
  /** The nisab the donor measures against; starts at the editor's default (silver). */
  nisabBasis: NisabBasis;
  /** Amount fields (assets and liabilities) by category id, as typed. */
  amounts: Partial<Record<AmountAssetId | LiabilityId, string>>;
  gold: MetalRow[];
  silver: MetalRow[];
}

export const METALS: readonly Metal[] = ["gold", "silver"];
export const MAX_METAL_ROWS = 20;

export const emptyRow = (): MetalRow => ({ kind: "weight", grams: "", purity: "", purityUnit: "carat", amount: "" });
export const emptyForm = (nisabBasis: NisabBasis = "silver"): CalcForm => ({
  yearType: "lunar",
  nisabBasis,
  amounts: {},
  gold: [emptyRow()],
  silver: [emptyRow()],
});

const ASSET_IDS = ASSET_CATEGORIES.map((c) => c.id).filter(
  (id): id is AmountAssetId => id !== "gold" && id !== "silver",
);
const LIABILITY_IDS = LIABILITY_CATEGORIES.map((c) => c.id);

export function toFormText(form: CalcForm): ZakatFormText {
  const pick = <K extends AmountAssetId | LiabilityId>(ids: readonly K[]) =>
    Object.fromEntries(ids.map((id) => [id, form.amounts[id] ?? ""])) as Record<K, string>;
  const rows = (list: MetalRow[]): MetalHoldingText[] =>
    list.map((r) =>
      r.kind === "value"
        ? { kind: "value", amount: r.amount }
        : { kind: "weight", grams: r.grams, purity: r.purity, purityUnit: r.purityUnit },
    );
  return {
    yearType: form.yearType,
    assets: pick(ASSET_IDS),
    liabilities: pick(LIABILITY_IDS),
    gold: rows(form.gold),
    silver: rows(form.silver),
  };
}

/** True when the donor has typed nothing at all (the year type and nisab choice alone are not figures). */
export function isEmpty(form: CalcForm): boolean {
  const rowEmpty = (r: MetalRow) => !r.grams.trim() && !r.purity.trim() && !r.amount.trim();
  return (
    Object.values(form.amounts).every((v) => !v?.trim()) && form.gold.every(rowEmpty) && form.silver.every(rowEmpty)
  );
}

/**
 * The localStorage key. The version is in the key: a future form whose saved shape changes uses
 * a new key, and old figures are ignored rather than misread.
 */
export const STORAGE_KEY = "nzf:zakat-calculator:v1";

const text = (value: unknown): string => (typeof value === "string" ? value.slice(0, 100) : "");

function readRow(value: unknown): MetalRow {
  const r = (value ?? {}) as Record<string, unknown>;
  return {
    kind: r.kind === "value" ? "value" : "weight",
    grams: text(r.grams),
    purity: text(r.purity),
    purityUnit: r.purityUnit === "thousandths" ? "thousandths" : "carat",
    amount: text(r.amount),
  };
}

/**
 * Reads saved figures defensively: storage is outside our control (another tab, an old version, a hand edit).
 * Figures saved before the nisab choice existed have no `nisabBasis` and get the editor's default.
 */
export function readSaved(raw: string | null, defaultBasis: NisabBasis = "silver"): CalcForm | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!data || typeof data !== "object") return null;
  const d = data as Record<string, unknown>;
  const amounts: CalcForm["amounts"] = {};
  const savedAmounts = (d.amounts ?? {}) as Record<string, unknown>;
  for (const id of [...ASSET_IDS, ...LIABILITY_IDS]) {
    const value = text(savedAmounts[id]);
    if (value) amounts[id] = value;
  }
  const rows = (value: unknown) => {
    const list = Array.isArray(value) ? value.slice(0, MAX_METAL_ROWS).map(readRow) : [];
    return list.length ? list : [emptyRow()];
  };
  const nisabBasis = d.nisabBasis === "gold" || d.nisabBasis === "silver" ? d.nisabBasis : defaultBasis;
  return {
    yearType: d.yearType === "solar" ? "solar" : "lunar",
    nisabBasis,
    amounts,
    gold: rows(d.gold),
    silver: rows(d.silver),
  };
}

/** Storage access that never throws: Safari's private mode and disabled storage throw on access. */
export function storageGet(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storageSet(form: CalcForm | null): void {
  try {
    if (form === null || isEmpty(form)) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, JSON.stringify(form));
  } catch {
    // Figures simply are not kept; the calculator works the same.
  }
}

/** The donation form's anchor on the pay page: the hand-off lands on the form, not the top of the page. */
export const PAY_ANCHOR = "give";

/** `/pay/zakat/?amount=350.00#give`: whole dollars, a full stop and two digits of cents, no grouping. */
export function payHref(payPath: string, dueCents: bigint): string {
  const dollars = dueCents / 100n;
  const cents = (dueCents % 100n).toString().padStart(2, "0");
  return `${payPath}?amount=${dollars}.${cents}#${PAY_ANCHOR}`;
}
