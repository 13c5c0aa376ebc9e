/**
 * When editors move Ramadan or Dhul Hijjah (the moon sighting changes the first night, or the month
 * has 29 nights rather than 30) after donors scheduled gifts for its nights or days, the charges
 * still to come move with it, to the dates the page now shows. Charges already made, claimed or
 * due before today stay as they were (history is not rewritten); the rest of the schedule becomes
 * the season's dates from today on, after the last one kept, at the same amount each. The donation
 * then records the season it follows, so a move is applied once; the donor is e-mailed the new
 * dates (once per donation and season). Runs at the start of the scheduled charges job.
 */
import * as clock from "../../core/clock.js";
import { type Kysely, sql } from "kysely";
import { computeSchedule } from "../../payments/schedules.js";
import { type Frequency, SEASONAL_FREQUENCIES, type ScheduledCharge, type Season } from "../../payments/types.js";
import { movedDatesNotice } from "../../receipts/charge-notices.js";
import type { ApiDeps } from "../deps.js";

export interface MoveInput {
  frequency: Frequency;
  intentType: "payment" | "setup";
  schedule: ScheduledCharge[];
  /** Dates the job has claimed (charged, tried, skipped): never moved. */
  claimed: ReadonlySet<string>;
  /** What each charge takes (gift plus any covered fee). */
  chargeCents: number;
  season: Season;
  today: string;
}

/** The schedule after a season moved (pure): kept charges, then the season's dates from today. */
export function movedSchedule(input: MoveInput): ScheduledCharge[] {
  const kept = input.schedule.filter(
    (c, i) => c.date < input.today || input.claimed.has(c.date) || (i === 0 && input.intentType === "payment"),
  );
  const last = kept.at(-1)?.date;
  const planned = computeSchedule({
    frequency: input.frequency,
    today: input.today,
    chargeCents: input.chargeCents,
    season: input.season,
  });
  const coming = planned.ok ? planned.schedule.charges.filter((c) => last === undefined || c.date > last) : [];
  return [...kept, ...coming];
}

const sameSeason = (a: Season | null, b: Season) => a?.start === b.start && a?.length === b.length;

type MoveTables = { scheduled_charges: { donation_id: string; charge_date: string; status: string } };

/** Moves the remaining charges of every scheduled seasonal gift whose season changed; the ids moved. */
export async function moveSeasonCharges(deps: ApiDeps, today: string): Promise<string[]> {
  const seasons = deps.seasons;
  if (!seasons?.ramadan && !seasons?.dhulHijjah) return [];
  const now = clock.now();
  const gifts = await deps.db
    .selectFrom("donations")
    .selectAll()
    .where("frequency", "in", [...SEASONAL_FREQUENCIES])
    .where("status", "=", "succeeded")
    .where("season", "is not", null)
    .execute();
  const moved: string[] = [];
  for (const gift of gifts) {
    const season = gift.frequency === "dhul-hijjah-ten-days" ? seasons.dhulHijjah : seasons.ramadan;
    if (!season || sameSeason(gift.season, season)) continue;
    // A gift whose season is over is history: nothing left to move.
    const lastDate = gift.schedule.at(-1)?.date;
    if (lastDate !== undefined && lastDate < today) continue;
    // A date the donor skipped that is still to come is no charge: it does not hold the schedule
    // (the season's dates from today are laid out again; the skip stays on its date if it is one).
    const claimed = await (deps.db as unknown as Kysely<MoveTables>)
      .selectFrom("scheduled_charges")
      .select("charge_date")
      .where("donation_id", "=", gift.id)
      .where((eb) => eb.or([eb("status", "<>", "skipped"), eb("charge_date", "<", today)]))
      .execute();
    const schedule = movedSchedule({
      frequency: gift.frequency as Frequency,
      intentType: gift.intent_type,
      schedule: gift.schedule,
      claimed: new Set(claimed.map((c) => c.charge_date)),
      chargeCents: gift.total_cents,
      season,
      today,
    });
    // Applied once, even by two runs at once: only while the donation still follows the old season.
    const updated = await deps.db
      .updateTable("donations")
      .set({
        schedule: JSON.stringify(schedule),
        season: JSON.stringify(season),
        schedule_total_cents: schedule.reduce((sum, c) => sum + c.amountCents, 0),
        updated_at: now,
      })
      .where("id", "=", gift.id)
      .where(sql`season`, "=", sql`${JSON.stringify(gift.season)}::jsonb`)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) continue;
    moved.push(gift.id);
    const before = gift.schedule
      .map((c) => c.date)
      .filter((d) => d >= today && !claimed.some((c) => c.charge_date === d));
    const after = schedule.map((c) => c.date).filter((d) => d >= today && !claimed.some((c) => c.charge_date === d));
    const mail = deps.receipts;
    if (mail && before.join() !== after.join())
      await mail.notify(
        movedDatesNotice({
          gift: {
            donationId: gift.id,
            reference: gift.reference,
            fund: gift.fund,
            frequency: gift.frequency,
            donorFirstName: gift.donor_first_name,
            donorEmail: gift.donor_email,
          },
          seasonStart: season.start,
          seasonLength: season.length,
          before,
          after,
          amountCents: gift.total_cents,
          issuer: mail.issuer,
          ...(mail.accountUrl ? { accountUrl: mail.accountUrl } : {}),
        }),
        { kind: "dates-moved", donationId: gift.id },
      );
  }
  return moved;
}
