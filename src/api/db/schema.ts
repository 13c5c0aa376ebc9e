/** The tables as Kysely sees them (src/api/db/migrations/ makes them). */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { DonationStatus, InstalmentPlan, Quantity, ScheduledCharge, Season } from "../../payments/types.js";

type Json<T> = ColumnType<T, string | T, string | T>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface DonationsTable {
  id: string;
  reference: string;
  idempotency_key: string;
  revision: Generated<number>;
  fund: string;
  frequency: string;
  payment_method: Generated<string>;
  intent_type: "payment" | "setup";
  currency: Generated<string>;
  amount_cents: number;
  fee_cents: number;
  total_cents: number;
  schedule_total_cents: number | null;
  open_ended: boolean;
  schedule: Json<ScheduledCharge[]>;
  instalments: Json<InstalmentPlan> | null;
  quantity: Json<Quantity> | null;
  season: Json<Season> | null;
  status: DonationStatus;
  donor_first_name: string;
  donor_last_name: string;
  donor_email: string;
  donor_phone: string;
  donor_address: Json<Record<string, string>> | null;
  anonymous: Generated<boolean>;
  dedication: string | null;
  cover_fees: boolean;
  client_secret: string;
  stripe_customer_id: string | null;
  stripe_intent_id: string | null;
  stripe_subscription_id: string | null;
  stripe_schedule_id: string | null;
  /** Stripe's billing cycle anchor of a card plan (migration 0010); null before it was kept. */
  stripe_billing_anchor: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The donor's skips an instalment schedule's start already holds (migration 0012). */
  stripe_anchor_skips: ColumnType<number, number | undefined, number>;
  /** The payment (1: the first) an instalment schedule's anchor is the date of (migration 0013). */
  stripe_anchor_charge: ColumnType<number, number | undefined, number>;
  /** The card shown for the gift (migration 0011), read from Stripe: the payment method it describes. */
  card_payment_method_id: ColumnType<string | null, string | null | undefined, string | null>;
  card_brand: ColumnType<string | null, string | null | undefined, string | null>;
  card_last4: ColumnType<string | null, string | null | undefined, string | null>;
  card_exp_month: ColumnType<number | null, number | null | undefined, number | null>;
  card_exp_year: ColumnType<number | null, number | null | undefined, number | null>;
  stripe_payment_method_id: string | null;
  paypal_id: string | null;
  paypal_capture_response: string | null;
  user_sub: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  key: string;
  scope: string;
  body_hash: string;
  status: number;
  response: string;
  donation_id: string | null;
  created_at: Timestamp;
}

/** A Stripe object a changed donation left behind, cancelled before a new one is opened (migration 0008). */
export interface IntentCancellationsTable {
  object_id: string;
  donation_id: string;
  revision: number;
  created_at: Timestamp;
  done_at: Timestamp | null;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  donation_id: string | null;
  processed_at: Timestamp;
}

export interface ChargesTable {
  id: string;
  donation_id: string;
  amount_cents: number;
  status: string;
  charged_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface ApiDatabase {
  donations: DonationsTable;
  idempotency_keys: IdempotencyKeysTable;
  stripe_events: StripeEventsTable;
  intent_cancellations: IntentCancellationsTable;
  charges: ChargesTable;
}

export type DonationRow = Selectable<DonationsTable>;
export type NewDonation = Insertable<DonationsTable>;
export type DonationUpdate = Updateable<DonationsTable>;
