/**
 * The zakat calculator on /calculate. The sums are src/zakat's (exact, in cents); this island is
 * the form around them. Settings arrive as plain JSON props from the build (settingsFromPrismic).
 *
 * The server renders the empty form as the calculator shows it, so it paints with the page and the
 * island hydrates only when the donor first reaches into it (`hydrateNow`, src/client/hydrate.ts).
 * A visitor without JavaScript gets the editor's "how to calculate" text instead: the page puts it,
 * with a style hiding the form, in `<noscript>` (templates/pages/calculate.tsx). What depends on
 * the browser (saved figures, today's date for the price age) happens in effects, after the first
 * render matched the server's; saved figures or a price warning make the island hydrate at once.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useIslandId } from "../island-id.js";
import { calculateZakat } from "../../zakat/calculate.js";
import { parseZakatForm } from "../../zakat/form.js";
import { priceAge } from "../../zakat/price-age.js";
import type { HelpKey, NisabBasis, ZakatResult, ZakatSettings } from "../../zakat/types.js";
import {
  type CalcForm,
  emptyForm,
  emptyRow,
  MAX_METAL_ROWS,
  METALS,
  type MetalRow,
  readSaved,
  storageGet,
  storageSet,
  toFormText,
} from "../calculator/form-state.js";
import { fieldId, MetalItem, TextField, type FieldEvents } from "../calculator/fields.js";
import { GROUPS, labelOf } from "../calculator/groups.js";
import { NisabChoice } from "../calculator/nisab-choice.js";
import { Result, RESULT_HEADING_ID } from "../calculator/result.js";
import { RunningBar } from "../calculator/running-bar.js";
import { type SectionTotal, sectionTotals } from "../calculator/section-totals.js";
import { focusStepById } from "../calculator/focus.js";

export interface CalculatorProps {
  /** ZakatSettings without the rich-text help, which the build turns into HTML (helpHtml). */
  settings: Omit<ZakatSettings, "help">;
  /** Help per category as HTML rendered at build time (links resolved, text escaped). */
  helpHtml: Record<HelpKey, string>;
  /** The zakat donation page, "/pay/zakat/". */
  payPath: string;
}

const NO_HELP = Object.fromEntries(GROUPS.map((g) => [g.help, null])) as ZakatSettings["help"];

/**
 * Hydrate while the page loads only when the browser has something to add to the server's markup:
 * the donor's saved figures, or a warning that the prices are old. Otherwise on first use.
 */
export function hydrateNow({ settings }: CalculatorProps): boolean {
  return readSaved(storageGet()) !== null || priceAge(settings.pricesAsAt, new Date()).stale;
}

export default function Calculator({ settings, helpHtml, payPath }: CalculatorProps) {
  const base = useIslandId("calc");
  const restored = useRef(false);
  const [form, setForm] = useState<CalcForm>(() => emptyForm(settings.nisabBasis));
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set(["cash"]));
  const [notice, setNotice] = useState("");
  /** The figures "Clear my figures" took away, until the donor brings them back or changes the form. */
  const [cleared, setCleared] = useState<CalcForm | null>(null);
  const lastGood = useRef<ZakatResult | null>(null);
  // The donor's nisab choice overrides the editor's default basis; prices and rates stay the editor's.
  const fullSettings = useMemo(
    () => ({ ...settings, nisabBasis: form.nisabBasis, help: NO_HELP }),
    [settings, form.nisabBasis],
  );
  const thresholds = useMemo(() => nisabThresholds(settings), [settings]);

  // Save on every change, but not before the saved figures were read: that would overwrite them with
  // an empty form. (Declared before the restore, so its first run still sees `restored` false.)
  useEffect(() => {
    if (restored.current) storageSet(form);
  }, [form]);
  // Restore saved figures once.
  useEffect(() => {
    const saved = readSaved(storageGet(), settings.nisabBasis);
    if (saved) {
      setForm(saved);
      const parsed = parseZakatForm(toFormText(saved));
      setShown(new Set(parsed.ok ? [] : Object.keys(parsed.errors)));
      setOpen(new Set(["cash", ...groupsWithFigures(saved)]));
    }
    restored.current = true;
  }, []);

  const parsed = parseZakatForm(toFormText(form));
  const errors = parsed.ok ? {} : parsed.errors;
  const current = parsed.ok ? calculateZakat(parsed.inputs, fullSettings) : null;
  if (current) lastGood.current = current;
  // While the donor is still typing in a field (its message not shown yet), keep the last good result.
  const result = lastGood.current ?? calculateZakat(parseEmpty(form.yearType), fullSettings);
  const pendingErrors = Object.keys(errors)
    .filter((key) => shown.has(key))
    .map((key) => ({ key, id: fieldId(base, key) }));

  const events: FieldEvents = {
    base,
    errorOf: (key) => (shown.has(key) ? errors[key] : undefined),
    onBlur: (key) => setShown((s) => (s.has(key) ? s : new Set(s).add(key))),
  };
  const update = (change: (f: CalcForm) => CalcForm) => {
    setNotice("");
    setCleared(null);
    setForm(change);
  };
  const setAmount = (id: string, value: string) => update((f) => ({ ...f, amounts: { ...f.amounts, [id]: value } }));
  const setRows = (metal: "gold" | "silver", rows: MetalRow[]) => update((f) => ({ ...f, [metal]: rows }));
  const removeRow = (metal: "gold" | "silver", index: number) => {
    setRows(
      metal,
      form[metal].filter((_, i) => i !== index),
    );
    // Row numbers shift: re-check the rows that remain so no message lands on the wrong row.
    setShown(
      (s) =>
        new Set(
          [...s]
            .filter((k) => !k.startsWith(`${metal}.`))
            .concat(
              form[metal]
                .slice(1)
                .flatMap((_, i) => [`${metal}.${i}.grams`, `${metal}.${i}.purity`, `${metal}.${i}.amount`]),
            ),
        ),
    );
    requestAnimationFrame(() => document.getElementById(`${base}-add-${metal}`)?.focus());
  };
  const addRow = (metal: "gold" | "silver") => {
    const index = form[metal].length;
    setRows(metal, [...form[metal], emptyRow()]);
    requestAnimationFrame(() =>
      document.querySelector<HTMLInputElement>(`input[name="${fieldId(base, `${metal}.${index}.kind`)}"]`)?.focus(),
    );
  };
  const clear = () => {
    setCleared(form);
    setForm(emptyForm(settings.nisabBasis));
    setShown(new Set());
    lastGood.current = null;
    storageSet(null);
    setOpen((s) => new Set(s).add("cash"));
    setNotice("Your figures have been cleared from this form and this browser.");
    requestAnimationFrame(() => document.getElementById(fieldId(base, "cash"))?.focus());
  };
  /** A tap on "Clear my figures" by mistake (it sits near the result on a phone) loses nothing. */
  const undoClear = () => {
    if (!cleared) return;
    setForm(cleared);
    setCleared(null);
    setNotice("Your figures are back.");
    requestAnimationFrame(() => document.getElementById(fieldId(base, "cash"))?.focus());
  };
  const totals = sectionTotals(form, current, errors, shown, fullSettings);
  const groupHeadingId = (id: string) => `${base}-group-${id}`;
  /** "Next": this section closes, the next opens, and its heading is focused at the top of the screen. */
  const nextSection = (from: string, to: string) => {
    setOpen((s) => new Set([...s].filter((g) => g !== from)).add(to));
    focusStepById(groupHeadingId(to));
  };
  const showResult = () => focusStepById(RESULT_HEADING_ID);

  return (
    <div className="calc">
      <div className="calc-layout">
        <form
          className="calc-form"
          aria-label="Zakat calculator"
          onSubmit={(e) => {
            e.preventDefault();
            showResult();
          }}
          noValidate
        >
          <fieldset className="calc-year">
            <legend>Which year do you count your zakat by?</legend>
            {(["lunar", "solar"] as const).map((y) => (
              <label key={y}>
                <input
                  type="radio"
                  name={`${base}-year`}
                  value={y}
                  checked={form.yearType === y}
                  onChange={() => update((f) => ({ ...f, yearType: y }))}
                />
                {y === "lunar"
                  ? ` Lunar (Hijri) year: ${settings.ratePercent.lunar}%`
                  : ` Solar (Gregorian) year: ${settings.ratePercent.solar}%`}
              </label>
            ))}
          </fieldset>
          <NisabChoice
            base={base}
            value={form.nisabBasis}
            thresholds={thresholds}
            onChange={(nisabBasis) => update((f) => ({ ...f, nisabBasis }))}
          />
          <p className="calc-hint">
            Enter amounts in Australian dollars as you would write them, like 1,200.50. Leave out what you do not have.
            Your figures stay in this browser; they are not sent to us.
          </p>
          {GROUPS.map((group, index) => (
            <details
              key={group.id}
              className="calc-group"
              open={open.has(group.id)}
              onToggle={(e) => {
                const isOpen = e.currentTarget.open;
                setOpen((s) =>
                  isOpen === s.has(group.id)
                    ? s
                    : isOpen
                      ? new Set(s).add(group.id)
                      : new Set([...s].filter((g) => g !== group.id)),
                );
              }}
            >
              <summary id={groupHeadingId(group.id)}>
                <span className="calc-group-title">{group.title}</span>
                <SectionTotalText total={totals.get(group.id)} liabilities={group.liabilities} />
              </summary>
              <div className="calc-group-body">
                <div className="prose calc-help" dangerouslySetInnerHTML={{ __html: helpHtml[group.help] }} />
                {group.fields.map((id) => (
                  <TextField
                    key={id}
                    {...events}
                    field={id}
                    label={labelOf(id)}
                    hint={
                      id === "sharesLongTerm"
                        ? `${settings.longTermShareProxyPercent}% of the market value is counted, our estimate of the zakatable part of the companies' assets.`
                        : undefined
                    }
                    value={form.amounts[id] ?? ""}
                    onChange={(v) => setAmount(id, v)}
                  />
                ))}
                {group.metals
                  ? METALS.map((metal) => (
                      <div key={metal} className="calc-metal-list">
                        <h2>{metal === "gold" ? "Gold" : "Silver"}</h2>
                        {form[metal].map((row, i) => (
                          <MetalItem
                            key={i}
                            {...events}
                            metal={metal}
                            index={i}
                            row={row}
                            canRemove={form[metal].length > 1}
                            onChange={(r) =>
                              setRows(
                                metal,
                                form[metal].map((x, j) => (j === i ? r : x)),
                              )
                            }
                            onRemove={() => removeRow(metal, i)}
                          />
                        ))}
                        {form[metal].length < MAX_METAL_ROWS ? (
                          <button
                            type="button"
                            id={`${base}-add-${metal}`}
                            className="button button-secondary"
                            onClick={() => addRow(metal)}
                          >
                            Add another {metal} item
                          </button>
                        ) : null}
                      </div>
                    ))
                  : null}
                {GROUPS[index + 1] ? (
                  <button
                    type="button"
                    className="button button-secondary calc-next"
                    onClick={() => nextSection(group.id, GROUPS[index + 1]!.id)}
                  >
                    Next: {GROUPS[index + 1]!.title}
                  </button>
                ) : (
                  // The form's submit button (Enter in a field does the same): a form without one is an
                  // accessibility error (WCAG H32), and there is nothing to send, only the result to show.
                  <button type="submit" className="button button-primary calc-next">
                    See my result
                  </button>
                )}
              </div>
            </details>
          ))}
          <div className="calc-actions">
            <button type="button" className="button button-secondary" onClick={clear}>
              Clear my figures
            </button>
            <p role="status" className="calc-hint">
              {notice}
            </p>
            {cleared ? (
              <button type="button" className="link-button" onClick={undoClear}>
                Bring my figures back
              </button>
            ) : null}
          </div>
        </form>
        <Result result={result} pendingErrors={pendingErrors} payPath={payPath} pricesAsAt={settings.pricesAsAt} />
        <RunningBar result={result} blocked={pendingErrors.length > 0} payPath={payPath} onShowResult={showResult} />
      </div>
    </div>
  );
}

function SectionTotalText({ total, liabilities }: { total: SectionTotal | undefined; liabilities?: boolean }) {
  if (!total || total.state === "none") return null;
  if (total.state === "check")
    return <span className="calc-group-total calc-group-total-check">Check this section</span>;
  if (total.state === "pending") return <span className="calc-group-total">Total pending</span>;
  return (
    <span className="calc-group-total">
      {liabilities ? "less " : ""}
      {total.text}
    </span>
  );
}

/** The nisab in dollars on each basis at the editor's prices: the same exact sum as the result's. */
function nisabThresholds(settings: CalculatorProps["settings"]): Record<NisabBasis, string> {
  const empty = parseEmpty("lunar");
  const on = (nisabBasis: NisabBasis) => calculateZakat(empty, { ...settings, nisabBasis, help: NO_HELP }).text.nisab;
  return { silver: on("silver"), gold: on("gold") };
}

function parseEmpty(yearType: CalcForm["yearType"]) {
  return { yearType, assets: {}, liabilities: {}, gold: [], silver: [] };
}

function groupsWithFigures(form: CalcForm): string[] {
  const ids = GROUPS.filter((g) => g.fields.some((id) => form.amounts[id]?.trim())).map((g) => g.id);
  const metals = [...form.gold, ...form.silver].some((r) => r.grams.trim() || r.purity.trim() || r.amount.trim());
  return metals ? [...ids, "metals"] : ids;
}
