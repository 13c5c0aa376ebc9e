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
import { mul, parseDecimal, ratio } from "../../zakat/ratio.js";
import type { HelpKey, MetalHolding, NisabBasis, ZakatResult, ZakatSettings } from "../../zakat/types.js";
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
import { GROUPS } from "../calculator/groups.js";
import { NisabChoice } from "../calculator/nisab-choice.js";
import { Result, RESULT_HEADING_ID } from "../calculator/result.js";
import { RunningBar } from "../calculator/running-bar.js";
import { type SectionTotal, sectionTotals } from "../calculator/section-totals.js";
import { focusStepById } from "../calculator/focus.js";
import { type CalcFormats, calcFormatsFor, fill } from "../calculator/format.js";
import type { CalculatorWords } from "../calculator/words/en.js";

export interface CalculatorProps {
  /** ZakatSettings without the rich-text help, which the build turns into HTML (helpHtml). */
  settings: Omit<ZakatSettings, "help">;
  /** Help per category as HTML rendered at build time (links resolved, text escaped). */
  helpHtml: Record<HelpKey, string>;
  /** The zakat donation page in the page's language, "/pay/zakat/" or "/ar-ae/pay/zakat/". */
  payPath: string;
  /** The calculator's words in the page's language (calculator/words/, chosen by the template). */
  words: CalculatorWords;
}

const NO_HELP = Object.fromEntries(GROUPS.map((g) => [g.help, null])) as ZakatSettings["help"];

/**
 * Hydrate while the page loads only when the browser has something to add to the server's markup:
 * the donor's saved figures, or a warning that the prices are old. Otherwise on first use.
 */
export function hydrateNow({ settings }: CalculatorProps): boolean {
  return readSaved(storageGet()) !== null || priceAge(settings.pricesAsAt, new Date()).stale;
}

/** A result and the metal items it was worked out from (their lines' details name them). */
interface Worked {
  result: ZakatResult;
  metals: { gold: readonly MetalHolding[]; silver: readonly MetalHolding[] };
}

export default function Calculator({ settings, helpHtml, payPath, words }: CalculatorProps) {
  const base = useIslandId("calc");
  const f = calcFormatsFor(words);
  const restored = useRef(false);
  const [form, setForm] = useState<CalcForm>(() => emptyForm(settings.nisabBasis));
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set(["cash"]));
  const [notice, setNotice] = useState("");
  /** The figures "Clear my figures" took away, until the donor brings them back or changes the form. */
  const [cleared, setCleared] = useState<CalcForm | null>(null);
  const lastGood = useRef<Worked | null>(null);
  // The donor's nisab choice overrides the editor's default basis; prices and rates stay the editor's.
  const fullSettings = useMemo(
    () => ({ ...settings, nisabBasis: form.nisabBasis, help: NO_HELP }),
    [settings, form.nisabBasis],
  );
  const thresholds = useMemo(() => nisabThresholds(settings, f), [settings, f]);

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
  if (current && parsed.ok)
    lastGood.current = {
      result: current,
      metals: { gold: parsed.inputs.gold ?? [], silver: parsed.inputs.silver ?? [] },
    };
  // While the donor is still typing in a field (its message not shown yet), keep the last good result.
  const worked = lastGood.current ?? {
    result: calculateZakat(parseEmpty(form.yearType), fullSettings),
    metals: { gold: [], silver: [] },
  };
  const result = worked.result;
  const pendingErrors = Object.keys(errors)
    .filter((key) => shown.has(key))
    .map((key) => ({ key, id: fieldId(base, key) }));

  const events: FieldEvents = {
    base,
    f,
    errorOf: (key) => (shown.has(key) && errors[key] !== undefined ? f.message(errors[key]) : undefined),
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
    setNotice(words.cleared);
    requestAnimationFrame(() => document.getElementById(fieldId(base, "cash"))?.focus());
  };
  /** A tap on "Clear my figures" by mistake (it sits near the result on a phone) loses nothing. */
  const undoClear = () => {
    if (!cleared) return;
    setForm(cleared);
    setCleared(null);
    setNotice(words.restored);
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
          aria-label={words.formLabel}
          onSubmit={(e) => {
            e.preventDefault();
            showResult();
          }}
          noValidate
        >
          <fieldset className="calc-year">
            <legend>{words.yearLegend}</legend>
            {(["lunar", "solar"] as const).map((y) => (
              <label key={y}>
                <input
                  type="radio"
                  name={`${base}-year`}
                  value={y}
                  checked={form.yearType === y}
                  onChange={() => update((f) => ({ ...f, yearType: y }))}
                />
                {` ${fill(words.years[y], { rate: ratePercent(settings.ratePercent[y], f) })}`}
              </label>
            ))}
          </fieldset>
          <NisabChoice
            base={base}
            f={f}
            value={form.nisabBasis}
            thresholds={thresholds}
            onChange={(nisabBasis) => update((f) => ({ ...f, nisabBasis }))}
          />
          <p className="calc-hint">{words.hint}</p>
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
                <span className="calc-group-title">{words.groups[group.id]}</span>
                <SectionTotalText f={f} total={totals.get(group.id)} liabilities={group.liabilities} />
              </summary>
              <div className="calc-group-body">
                <div className="prose calc-help" dangerouslySetInnerHTML={{ __html: helpHtml[group.help] }} />
                {group.fields.map((id) => (
                  <TextField
                    key={id}
                    {...events}
                    field={id}
                    label={words.labels[id]}
                    hint={
                      id === "sharesLongTerm"
                        ? fill(words.sharesHint, { percent: ratePercent(settings.longTermShareProxyPercent, f) })
                        : undefined
                    }
                    value={form.amounts[id] ?? ""}
                    onChange={(v) => setAmount(id, v)}
                  />
                ))}
                {group.metals
                  ? METALS.map((metal) => (
                      <div key={metal} className="calc-metal-list">
                        <h2>{words.metals[metal]}</h2>
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
                            {words.addItem[metal]}
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
                    {fill(words.next, { section: words.groups[GROUPS[index + 1]!.id]! })}
                  </button>
                ) : (
                  // The form's submit button (Enter in a field does the same): a form without one is an
                  // accessibility error (WCAG H32), and there is nothing to send, only the result to show.
                  <button type="submit" className="button button-primary calc-next">
                    {words.seeResult}
                  </button>
                )}
              </div>
            </details>
          ))}
          <div className="calc-actions">
            <button type="button" className="button button-secondary" onClick={clear}>
              {words.clear}
            </button>
            <p role="status" className="calc-hint">
              {notice}
            </p>
            {cleared ? (
              <button type="button" className="link-button" onClick={undoClear}>
                {words.bringBack}
              </button>
            ) : null}
          </div>
        </form>
        <Result
          f={f}
          result={result}
          metals={worked.metals}
          pendingErrors={pendingErrors}
          payPath={payPath}
          settings={settings}
        />
        <RunningBar
          f={f}
          result={result}
          blocked={pendingErrors.length > 0}
          payPath={payPath}
          onShowResult={showResult}
        />
      </div>
    </div>
  );
}

function SectionTotalText({
  f,
  total,
  liabilities,
}: {
  f: CalcFormats;
  total: SectionTotal | undefined;
  liabilities?: boolean;
}) {
  if (!total || total.state === "none") return null;
  if (total.state === "check")
    return <span className="calc-group-total calc-group-total-check">{f.words.sectionCheck}</span>;
  if (total.state === "pending") return <span className="calc-group-total">{f.words.sectionPending}</span>;
  const amount = f.money(total.cents);
  return <span className="calc-group-total">{liabilities ? fill(f.words.less, { amount }) : amount}</span>;
}

/** An editor's percentage ("2.5", checked by the build) in the page's language: "2.5%". */
function ratePercent(percent: string, f: CalcFormats): string {
  return f.percent(mul(parseDecimal(percent) ?? ratio(0n), ratio(1n, 100n)));
}

/** The nisab in dollars on each basis at the editor's prices: the same exact sum as the result's. */
function nisabThresholds(settings: CalculatorProps["settings"], f: CalcFormats): Record<NisabBasis, string> {
  const empty = parseEmpty("lunar");
  const on = (nisabBasis: NisabBasis) =>
    f.money(calculateZakat(empty, { ...settings, nisabBasis, help: NO_HELP }).nisab.valueCents);
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
