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
  CLAIM_GUEST_GIFTS,
  financialYearOf,
  giftMutation,
  GIVING_QUERY,
  REGULAR_GIFTS_QUERY,
  TAX_SUMMARY_QUERY,
  type DonationData,
  type GiftAction,
  type GiftChangeData,
  type GiftData,
  type TaxSummaryData,
} from "./giving-queries.js";

/** How often, and how far apart, a gift is read again after a change Stripe confirms by webhook. */
const RELOAD_TRIES = 6;
const RELOAD_PAUSE_MS = 1_000;

export type Loaded<T> = { state: "loading" } | { state: "ready"; value: T } | { state: "failed"; message: string };

const messageOf = (error: unknown) =>
  error instanceof AccountApiError ? error.message : "Something went wrong. Please reload the page and try again.";

export function useGiving(api: AccountApi) {
  const [giving, setGiving] = useState<Loaded<{ donations: DonationData[]; gifts: GiftData[]; claimable: number }>>({
    state: "loading",
  });
  /** Bumped to load the giving again (after guest gifts joined the account). */
  const [version, setVersion] = useState(0);
  const [year, setYear] = useState<number | null>(null);
  const [summary, setSummary] = useState<Loaded<TaxSummaryData>>({ state: "loading" });

  useEffect(() => {
    let live = true;
    setYear(financialYearOf(todayIn("Australia/Sydney")));
    api
      .request<{ donations: DonationData[]; regularGifts: GiftData[]; claimableGuestGifts: number }>(GIVING_QUERY)
      .then(
        (data) =>
          live &&
          setGiving({
            state: "ready",
            value: { donations: data.donations, gifts: data.regularGifts, claimable: data.claimableGuestGifts },
          }),
      )
      .catch((error: unknown) => live && setGiving({ state: "failed", message: messageOf(error) }));
    return () => {
      live = false;
    };
  }, [api, version]);

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
  }, [api, year, version]);

  /**
   * Runs one change; resolves with the API's sentence (and PayPal's page to agree to a new amount,
   * or the SetupIntent for a new card), or rejects with a donor-facing message.
   */
  async function changeGift(
    id: string,
    action: GiftAction,
    amountCents?: number,
    date?: string,
  ): Promise<{ message: string; url?: string | null; clientSecret?: string | null }> {
    try {
      const { change } = await api.request<GiftChangeData>(giftMutation(action), {
        id,
        ...(action === "change" ? { amountCents } : {}),
        ...(action === "skip" ? { date } : {}),
      });
      setGiving((now) =>
        now.state === "ready"
          ? { ...now, value: { ...now.value, gifts: now.value.gifts.map((g) => (g.id === id ? change.gift : g)) } }
          : now,
      );
      return { message: change.message, url: change.url ?? null, clientSecret: change.clientSecret ?? null };
    } catch (error) {
      throw new Error(messageOf(error));
    }
  }

  /**
   * Reads the gift again until `changed` says the API has caught up (a new card is the gift's once
   * Stripe's signed webhook reached the service, a moment after Stripe saved it), a few tries at
   * most; the gift is replaced in place with what the API says.
   */
  async function reloadGift(id: string, changed: (gift: GiftData) => boolean): Promise<void> {
    for (let attempt = 0; attempt < RELOAD_TRIES; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RELOAD_PAUSE_MS));
      let fresh: GiftData | undefined;
      try {
        fresh = (await api.request<{ regularGifts: GiftData[] }>(REGULAR_GIFTS_QUERY)).regularGifts.find(
          (g) => g.id === id,
        );
      } catch {
        return;
      }
      if (!fresh) return;
      const gift = fresh;
      setGiving((now) =>
        now.state === "ready"
          ? { ...now, value: { ...now.value, gifts: now.value.gifts.map((g) => (g.id === id ? gift : g)) } }
          : now,
      );
      if (changed(gift)) return;
    }
  }

  /** Adds the guest gifts given with the account's verified e-mail; resolves with the API's sentence. */
  async function claimGuestGifts(): Promise<string> {
    try {
      const { claim } = await api.request<{ claim: { claimed: number; message: string } }>(CLAIM_GUEST_GIFTS);
      setVersion((v) => v + 1);
      return claim.message;
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

  return { giving, summary, year, setYear, years, changeGift, reloadGift, claimGuestGifts };
}
