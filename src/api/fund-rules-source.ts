/**
 * The funds' prices and limits from the content, so the page and the service cannot disagree and
 * an editor's price change needs no code change (docs/payments-api.md, "Prices"). The rules start
 * from DEFAULT_FUND_RULES (schedules, ranges, deductibility) and take each donation page's prices
 * and its narrower minimum and maximum. The content comes from `load`: locally the snapshot the
 * build uses (`snapshotLoader`), in Lambda Prismic's master ref (`prismicLoader`). It is read again
 * every few minutes; when a read fails, the last good rules are kept.
 *
 * A donor whose page was built before a price change is charged the price that page showed for a
 * grace period (24 hours: PRICE_GRACE_MS): the price is checked against the current rules, then against
 * each superseded set still within its grace.
 */
import * as clock from "../core/clock.js";
import { existsSync } from "node:fs";
import type { Logger } from "../core/logger.js";
import { contentPricesOf } from "../content/price-check.js";
import { readSnapshot, SAMPLE_SNAPSHOT_NAME, snapshotPath } from "../content/snapshot.js";
import { DEFAULT_FUND_RULES, type FundRules, withContentLimits } from "../payments/fund-rules.js";
import { rulesWithContentPrices } from "../payments/pricing.js";
import { checkSeason } from "../payments/schedules.js";
import { FUND_TYPES, FUNDS, type Fund, type Season } from "../payments/types.js";

export interface ContentDocument {
  type: string;
  lang: string;
  data: Record<string, unknown>;
}

export interface RulesSource {
  rulesFor(fund: Fund): FundRules;
  /** The rules to check this request with: a price a page showed within the grace period still counts. */
  rulesForRequest(body: unknown): (fund: Fund) => FundRules;
  /**
   * The seasons' dates the pages show (Ramadan's and Dhul Hijjah's first night or day and length,
   * entered by editors at the moon sighting): one object, updated in place on each read, so every
   * holder of it sees a moved season (the season check of new gifts, the job that moves charges).
   */
  seasons: Seasons;
  /** Reads the content again (the timer calls it); keeps the last good rules when it fails. */
  refresh(): Promise<void>;
  stop(): void;
}

export const PRICE_GRACE_MS = 24 * 60 * 60 * 1000;

export type Seasons = { ramadan?: Season; dhulHijjah?: Season };

/** The seasons of the Ramadan and Dhul Hijjah pages (the English page's, as for prices); a season the page cannot use is left out. */
export function seasonsFromContent(documents: readonly ContentDocument[]): Seasons {
  const seasonOf = (type: string, frequency: "ramadan-nightly" | "dhul-hijjah-ten-days"): Season | undefined => {
    const pages = documents.filter((d) => d.type === type);
    const page = pages.find((d) => d.lang === "en-au") ?? pages[0];
    const season = { start: page?.data.season_start, length: page?.data.season_length } as Season;
    return page && checkSeason(frequency, season) === null ? { start: season.start, length: season.length } : undefined;
  };
  const ramadan = seasonOf(FUND_TYPES.ramadan, "ramadan-nightly");
  const dhulHijjah = seasonOf(FUND_TYPES["dhul-hijjah"], "dhul-hijjah-ten-days");
  return { ...(ramadan ? { ramadan } : {}), ...(dhulHijjah ? { dhulHijjah } : {}) };
}

/** The rules every fund has with this content: its donation page's prices and limits over the defaults. */
export function rulesFromContent(documents: readonly ContentDocument[]): Record<Fund, FundRules> {
  const rules = { ...DEFAULT_FUND_RULES };
  for (const fund of FUNDS) {
    const pages = documents.filter((d) => d.type === FUND_TYPES[fund]);
    const page = pages.find((d) => d.lang === "en-au") ?? pages[0];
    if (!page) continue;
    const num = (key: string) => (typeof page.data[key] === "number" ? (page.data[key] as number) : null);
    rules[fund] = withContentLimits(rulesWithContentPrices(DEFAULT_FUND_RULES[fund], contentPricesOf(page.data)), {
      minimumAmount: num("minimum_amount"),
      maximumAmount: num("maximum_amount"),
    });
  }
  return rules;
}

const priceKey = (rules: FundRules) => JSON.stringify(rules.quantity ?? null);

function pricesMatch(rules: FundRules, quantity: { unitCents?: unknown; optionId?: unknown }): boolean {
  const q = rules.quantity;
  if (!q) return false;
  if (!q.options) return q.unitCents === quantity.unitCents;
  return q.options.some((o) => o.code === quantity.optionId && o.unitCents === quantity.unitCents);
}

export function createRulesSource(options: {
  load: () => Promise<readonly ContentDocument[]>;
  refreshMs?: number;
  logger?: Logger;
}): RulesSource & { ready: Promise<void> } {
  let current: Record<Fund, FundRules> = { ...DEFAULT_FUND_RULES };
  let loaded = false;
  const superseded: { fund: Fund; rules: FundRules; until: number }[] = [];
  const seasons: Seasons = {};

  async function refresh(): Promise<void> {
    let next: Record<Fund, FundRules>;
    let nextSeasons: Seasons;
    try {
      const documents = await options.load();
      next = rulesFromContent(documents);
      nextSeasons = seasonsFromContent(documents);
    } catch (error) {
      options.logger?.warn(
        "api",
        `fund rules: the content could not be read (${(error as Error).message}); keeping the ${loaded ? "last good" : "default"} prices`,
      );
      return;
    }
    const at = clock.now().getTime();
    for (const fund of FUNDS)
      if (loaded && priceKey(next[fund]) !== priceKey(current[fund]))
        superseded.push({ fund, rules: current[fund], until: at + PRICE_GRACE_MS });
    for (let i = superseded.length - 1; i >= 0; i--) if (superseded[i]!.until <= at) superseded.splice(i, 1);
    current = next;
    delete seasons.ramadan;
    delete seasons.dhulHijjah;
    Object.assign(seasons, nextSeasons);
    loaded = true;
  }

  const ready = refresh();
  const timer = options.refreshMs ? setInterval(() => void refresh(), options.refreshMs).unref() : undefined;
  return {
    ready,
    refresh,
    seasons,
    rulesFor: (fund) => current[fund],
    rulesForRequest(body) {
      const b = (body && typeof body === "object" ? body : {}) as { fund?: unknown; quantity?: unknown };
      const quantity = (b.quantity && typeof b.quantity === "object" ? b.quantity : {}) as Record<string, unknown>;
      const at = clock.now().getTime();
      return (fund) => {
        if (fund !== b.fund || pricesMatch(current[fund], quantity)) return current[fund];
        const honoured = superseded.find((s) => s.fund === fund && s.until > at && pricesMatch(s.rules, quantity));
        return honoured?.rules ?? current[fund];
      };
    },
    stop: () => clearInterval(timer),
  };
}

/** Locally: the snapshot the build reads, the fetched one for the repository if there is one, else the sample. */
export function snapshotLoader(
  contentDir: string,
  repository: string,
  sample = false,
): () => Promise<readonly ContentDocument[]> {
  return async () => {
    // As the build chooses (src/pipeline/content-stage.ts): the fetched snapshot unless --sample, else the sample.
    const fetched = snapshotPath(contentDir, repository);
    const file = !sample && existsSync(fetched) ? fetched : snapshotPath(contentDir, SAMPLE_SNAPSHOT_NAME);
    return (await readSnapshot(file)).documents as unknown as ContentDocument[];
  };
}

/** In Lambda: the donation pages at Prismic's master ref (the CDN caches them). */
export function prismicLoader(repository: string, accessToken?: string): () => Promise<readonly ContentDocument[]> {
  return async () => {
    const { createClient, filter } = await import("@prismicio/client");
    const client = createClient(repository, accessToken ? { accessToken } : {});
    return (await client.dangerouslyGetAll({
      filters: [filter.any("document.type", Object.values(FUND_TYPES))],
      lang: "*",
    })) as never;
  };
}
