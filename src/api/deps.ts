/** What the payments API application is made of: given by `nzf-build api`, the Lambda handler and the tests. */
import type { Kysely } from "kysely";
import type Stripe from "stripe";
import type { Logger } from "../core/logger.js";
import type { FundRules } from "../payments/fund-rules.js";
import type { DonationCreated, DonationRequest, DonationStatus, Fund, Season } from "../payments/types.js";
import type { CorsPolicy } from "./cors.js";
import type { ApiDatabase } from "./db/schema.js";
import type { PayPalProvider } from "./paypal/provider.js";
import type { PayPalApi } from "./paypal/sdk.js";
import type { ReceiptsService } from "./receipts/service.js";

export interface DonationCreatedEvent {
  /** The request's Authorization header, as sent (the account API of watch mode reads it). */
  authorization?: string;
  /** The verified `sub` of the signed-in donor, when the token checked out. */
  userSub: string | null;
  created: DonationCreated;
  request: DonationRequest;
}

export interface ApiDeps {
  db: Kysely<ApiDatabase>;
  /** The Stripe SDK (src/api/stripe/client.ts); null when no key is configured: card gifts then answer 503. */
  stripe: Stripe | null;
  /** `whsec_…`: the signing secret of the webhook endpoint. */
  webhookSecret: string;
  paypal: PayPalProvider | null;
  /** PayPal's SDK (src/api/paypal/sdk.ts) when PayPal is configured: verifies PayPal's webhooks, and a capture then waits for PayPal's signed event to mark the gift paid. */
  paypalApi?: PayPalApi | null;
  cors: CorsPolicy;
  /** The site's public origin (SITE_URL): PayPal returns donors to its /account/ page. */
  siteUrl?: string;
  /** The fund's prices, limits and schedules (the content's, src/api/fund-rules-source.ts). */
  rulesFor(fund: Fund): FundRules;
  /** The rules one request is checked with: also a price shown before a change, within its grace period. */
  rulesForRequest?(body: unknown): (fund: Fund) => FundRules;
  /** The seasons' dates the service holds; a request with others gets 422 season_mismatch. */
  seasons?: { ramadan?: Season; dhulHijjah?: Season };
  logger?: Logger;
  /** Receipts (src/api/receipts/): issued and e-mailed from the signed webhooks; absent without the foundation's name and ABN. */
  receipts?: ReceiptsService | null;
  /**
   * The `sub` of a valid user pool token in `Authorization: Bearer …`, or null. The account API
   * (src/account-api/) verifies tokens with aws-jwt-verify; until it moves in, the service is given
   * this function and records the sub on the donation.
   */
  identifyDonor?(authorization: string | undefined): Promise<string | null>;
  /** Told of each new donation (not replays). */
  onDonationCreated?(event: DonationCreatedEvent): unknown;
  /** Told when a signed event changed a donation's status. */
  onStatusChanged?(donationId: string, status: DonationStatus): unknown;
}
