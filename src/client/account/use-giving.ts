/**
 * The signed-in donor's giving, from the account API: donations (with receipts), regular gifts and
 * the tax summary of a chosen financial year. Loads once the account is shown; a regular gift's
 * change replaces that gift in place with what the API returned, so the list is always what the
 * API says, never a guess.
 */
import { useEffect, useState } from "react";
import { todayIn } from "../../payments/schedules.js";
import { AccountApiError, type AccountApi } from "./account-api.js";
import {
  financialYearOf,
  giftMutation,
  GIVING_QUERY,
  TAX_SUMMARY_QUERY,
  type DonationData,
  type GiftAction,
  type GiftChangeData,
  type GiftData,
  type TaxSummaryData,
} from "./giving-queries.js";

export type Loaded<T> = { state: "loading" } | { state: "ready"; value: T } | { state: "failed"; message: string };

const messageOf = (error: unknown) =>
  error instanceof AccountApiError ? error.message : "Something went wrong. Please reload the page and try again.";

export function useGiving(api: AccountApi) {
  const [giving, setGiving] = useState<Loaded<{ donations: DonationData[]; gifts: GiftData[] }>>({
    state: "loading",
  });
  const [year, setYear] = useState<number | null>(null);
  const [summary, setSummary] = useState<Loaded<TaxSummaryData>>({ state: "loading" });

  useEffect(() => {
    let live = true;
    setYear(financialYearOf(todayIn("Australia/Sydney")));
    api
      .request<{ donations: DonationData[]; regularGifts: GiftData[] }>(GIVING_QUERY)
      .then(
        (data) => live && setGiving({ state: "ready", value: { donations: data.donations, gifts: data.regularGifts } }),
      )
      .catch((error: unknown) => live && setGiving({ state: "failed", message: messageOf(error) }));
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    if (year === null) return;
    let live = true;
    setSummary({ state: "loading" });
    api
      .request<{ taxSummary: TaxSummaryData }>(TAX_SUMMARY_QUERY, { year })
      .then((data) => live && setSummary({ state: "ready", value: data.taxSummary }))
      .catch((error: unknown) => live && setSummary({ state: "failed", message: messageOf(error) }));
    return () => {
      live = false;
    };
  }, [api, year]);

  /** Runs one change; resolves with the API's sentence, or rejects with a donor-facing message. */
  async function changeGift(id: string, action: GiftAction, amountCents?: number): Promise<string> {
    try {
      const { change } = await api.request<GiftChangeData>(giftMutation(action), {
        id,
        ...(action === "change" ? { amountCents } : {}),
      });
      setGiving((now) =>
        now.state === "ready"
          ? { ...now, value: { ...now.value, gifts: now.value.gifts.map((g) => (g.id === id ? change.gift : g)) } }
          : now,
      );
      return change.message;
    } catch (error) {
      throw new Error(messageOf(error));
    }
  }

  /** The years a donor can pick: this one and every year with a donation, newest first. */
  const years =
    year === null
      ? []
      : [
          ...new Set([
            year,
            ...(giving.state === "ready" ? giving.value.donations.map((d) => financialYearOf(d.date)) : []),
          ]),
        ].sort((a, b) => b - a);

  return { giving, summary, year, setYear, years, changeGift };
}
