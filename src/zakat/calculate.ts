/**
 * The zakat calculation: one pure function from the donor's inputs and the editor's settings to a
 * result that carries its own explanation. Everything is exact (bigint rationals) until the due
 * amount is rounded half up to the cent, once, at the end. Display figures (per-line values, the
 * totals) are rounded half up from their exact values independently, and never fed back in.
 */
import { NzfError } from "../core/coded-error.js";
import { ASSET_CATEGORIES, LIABILITY_CATEGORIES } from "./categories.js";
import { formatAud, formatAudExact, formatGrams } from "./format.js";
import { type Ratio, compare, max, mul, parseDecimal, ratio, roundHalfUp, sub, sum, ZERO } from "./ratio.js";
import { exactSettings, NISAB_GRAMS } from "./settings.js";
import type { Metal, MetalHolding, Purity, ZakatInputs, ZakatLine, ZakatResult, ZakatSettings } from "./types.js";

function invalidInput(message: string): never {
  // Inputs are meant to arrive through parseAmount/parseZakatForm; anything else is a caller bug.
  throw new NzfError("INTERNAL", `Invalid zakat calculator input: ${message}.`);
}

function checkCents(what: string, value: unknown): bigint {
  if (typeof value !== "bigint") invalidInput(`${what} must be whole cents as a bigint, got ${typeof value}`);
  if (value < 0n) invalidInput(`${what} is negative (${value} cents)`);
  return value;
}

/** Fraction of pure metal: 18 carat → 18/24, 916 thousandths → 916/1000. */
export function purityFraction(purity: Purity): Ratio {
  const value = parseDecimal(String(purity.value));
  const limit = purity.unit === "carat" ? 24n : 1000n;
  if (!value || compare(value, ratio(1n)) < 0 || compare(value, ratio(limit)) > 0) {
    invalidInput(`purity ${String(purity.value)} ${purity.unit} is outside 1 to ${limit}`);
  }
  return mul(value, ratio(1n, limit));
}

function line(
  id: ZakatLine["id"],
  kind: ZakatLine["kind"],
  label: string,
  value: Ratio,
  zakatable: Ratio,
  detail?: string,
): ZakatLine {
  const result: ZakatLine = {
    id,
    kind,
    label,
    valueExact: value,
    valueCents: roundHalfUp(value),
    zakatableExact: zakatable,
    zakatableCents: roundHalfUp(zakatable),
  };
  if (detail !== undefined) result.detail = detail;
  return result;
}

function metalLines(
  metal: Metal,
  label: string,
  holdings: readonly MetalHolding[],
  pricePerGramCents: Ratio,
): ZakatLine[] {
  const lines: ZakatLine[] = [];
  holdings.forEach((holding, index) => {
    const what = `${metal} item ${index + 1}`;
    if (holding.kind === "value") {
      const cents = checkCents(`the value of ${what}`, holding.cents);
      if (cents > 0n) lines.push(line(metal, "asset", label, ratio(cents), ratio(cents), "by value"));
      return;
    }
    const milligrams = checkCents(`the weight of ${what}`, holding.milligrams);
    if (milligrams === 0n) return;
    // grams × purity × price per gram of pure metal; grams = milligrams / 1000.
    const value = mul(ratio(milligrams, 1000n), purityFraction(holding.purity), pricePerGramCents);
    const purityText =
      holding.purity.unit === "carat" ? `${holding.purity.value} carat` : `${holding.purity.value} thousandths`;
    const detail = `${formatGrams(milligrams)} of ${purityText} ${metal} at ${formatAudExact(pricePerGramCents)} per gram of pure ${metal}`;
    lines.push(line(metal, "asset", label, value, value, detail));
  });
  return lines;
}

/** Calculates zakat due. Throws NzfError INTERNAL for malformed inputs, DOCUMENT_INVALID for unusable settings. */
export function calculateZakat(inputs: ZakatInputs, settings: ZakatSettings): ZakatResult {
  const exact = exactSettings(settings);
  if (inputs.yearType !== "lunar" && inputs.yearType !== "solar")
    invalidInput(`yearType is "${String(inputs.yearType)}"`);

  const assetLines: ZakatLine[] = [];
  for (const category of ASSET_CATEGORIES) {
    if (category.id === "gold" || category.id === "silver") {
      const holdings = inputs[category.id] ?? [];
      assetLines.push(...metalLines(category.id, category.label, holdings, exact.pricePerGramCents[category.id]));
      continue;
    }
    const cents = checkCents(category.id, inputs.assets[category.id] ?? 0n);
    if (cents === 0n) continue;
    if (category.id === "sharesLongTerm") {
      const percent = settings.longTermShareProxyPercent;
      const zakatable = mul(ratio(cents), exact.shareProxy);
      assetLines.push(
        line(
          category.id,
          "asset",
          category.label,
          ratio(cents),
          zakatable,
          `${percent}% of ${formatAud(cents)} is zakatable`,
        ),
      );
    } else {
      assetLines.push(line(category.id, "asset", category.label, ratio(cents), ratio(cents)));
    }
  }

  const liabilityLines: ZakatLine[] = [];
  for (const category of LIABILITY_CATEGORIES) {
    const cents = checkCents(category.id, inputs.liabilities[category.id] ?? 0n);
    if (cents > 0n) liabilityLines.push(line(category.id, "liability", category.label, ratio(cents), ratio(cents)));
  }

  const totalAssetsExact = sum(assetLines.map((l) => l.zakatableExact));
  const totalLiabilitiesExact = sum(liabilityLines.map((l) => l.zakatableExact)); // whole cents
  const netExact = sub(totalAssetsExact, totalLiabilitiesExact);

  const basis = settings.nisabBasis;
  if (basis !== "silver" && basis !== "gold") {
    throw new NzfError(
      "DOCUMENT_INVALID",
      `The calculator setting nisabBasis is "${String(basis)}"; it must be silver or gold.`,
    );
  }
  const nisabExact = mul(ratio(BigInt(NISAB_GRAMS[basis])), exact.pricePerGramCents[basis]);
  // At or above the nisab is due; a negative net is below any (positive) nisab, so it is never due.
  const aboveNisab = compare(netExact, nisabExact) >= 0;
  const rate = exact.rate[inputs.yearType];
  const dueCents = aboveNisab ? roundHalfUp(mul(rate.ratio, max(netExact, ZERO))) : 0n;

  const totalAssetsCents = roundHalfUp(totalAssetsExact);
  const totalLiabilitiesCents = roundHalfUp(totalLiabilitiesExact);
  // Liabilities are whole cents and roundHalfUp(x - n) = roundHalfUp(x) - n, so this is also roundHalfUp(netExact).
  const netCents = totalAssetsCents - totalLiabilitiesCents;
  const nisabCents = roundHalfUp(nisabExact);

  return {
    nisab: {
      basis,
      grams: NISAB_GRAMS[basis],
      pricePerGramCents: exact.pricePerGramCents[basis],
      pricePerGramText: formatAudExact(exact.pricePerGramCents[basis]),
      valueExact: nisabExact,
      valueCents: nisabCents,
      pricesAsAt: settings.pricesAsAt,
    },
    totalAssetsCents,
    totalAssetsExact,
    totalLiabilitiesCents,
    netCents,
    netExact,
    aboveNisab,
    rate: {
      yearType: inputs.yearType,
      numerator: rate.numerator,
      denominator: rate.denominator,
      percentText: rate.percentText,
    },
    dueCents,
    lines: [...assetLines, ...liabilityLines],
    text: {
      nisab: formatAud(nisabCents),
      totalAssets: formatAud(totalAssetsCents),
      totalLiabilities: formatAud(totalLiabilitiesCents),
      net: formatAud(netCents),
      due: formatAud(dueCents),
    },
  };
}
