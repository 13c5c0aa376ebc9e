/**
 * Which schedules PayPal takes, apart from paypal.ts's messages so the form's first load carries
 * only this (the messages come with the deferred PayPal kit).
 */
import type { Frequency } from "./types.js";

/**
 * The schedules PayPal takes: a one-off gift is an order (created, approved by the donor in PayPal's
 * window, then captured by the API); monthly and monthly instalments are a PayPal subscription (a
 * plan billed monthly, open-ended or for a fixed number of cycles, the last cycle priced apart when
 * the split leaves cents over). Weekly Friday and the seasonal schedules are cards only: their dates
 * follow the content's season and the moon sighting, and the API moves remaining charges when the
 * editors move the season, which a PayPal plan cannot do.
 */
export const PAYPAL_FREQUENCIES: readonly Frequency[] = ["once", "monthly", "monthly-instalments"];

export const paypalFits = (frequency: Frequency): boolean => PAYPAL_FREQUENCIES.includes(frequency);

/** Said when PayPal is asked for a schedule it does not take (400 validation_failed, field paymentMethod). */
export const PAYPAL_CARDS_ONLY =
  "PayPal takes one-off, monthly and instalment gifts; this schedule is paid by card only. Choose card.";
