/**
 * The account API's schema (docs/account-api.md is the prose version; docs/account-api.graphql is
 * this text, kept equal by a test). Money is in cents (Int) like the payments API, dates are
 * `YYYY-MM-DD` in Australia/Sydney, and every mutation is safe to repeat: it sets a state rather
 * than toggling one, and says whether anything changed.
 */
export const ACCOUNT_SCHEMA_SDL = `"""
The signed-in donor's account. Every field needs the donor's user pool ACCESS token
(Authorization: Bearer <access token>); without a valid one the whole request is refused with 401.
The donor is the token's sub: an e-mail never grants access.
"""
type Query {
  "Who is signed in: the token's sub, and the e-mail the user pool holds."
  me: Profile!
  """
  Every charge of every donation made while signed in (and of guest gifts the donor added with
  claimGuestGifts), paid, failed or processing, newest first. A checkout never paid is not listed.
  """
  donations: [Donation!]!
  "One receipt per paid charge, newest first."
  receipts: [Receipt!]!
  "The tax summary of one Australian financial year (1 July to 30 June), e.g. 2026 for 2025-07-01 to 2026-06-30."
  taxSummary(financialYear: Int!): TaxSummary!
  "Every plan: monthly and weekly gifts, instalments, seasonal series; active, paused, cancelled or complete."
  regularGifts: [RegularGift!]!
  """
  How many gifts were given without signing in with this account's e-mail, which the donor may add
  (claimGuestGifts). 0 unless the user pool has verified the e-mail.
  """
  claimableGuestGifts: Int!
}

type Mutation {
  """
  Stops charges until resumed. Repeating it changes nothing. Card instalments have their Stripe
  schedule cancelled, and their resume lays a new one for the payments that remain from the next
  billing day, so they keep their number of payments. Refused while canPause is false
  (PAUSE_NOT_AVAILABLE).
  """
  pauseRegularGift(id: ID!): RegularGiftChange!
  "Restarts a paused gift from the next charge date. Repeating it changes nothing."
  resumeRegularGift(id: ID!): RegularGiftChange!
  "Sets the gift per charge (before any covered fee), in cents. Setting the same amount again changes nothing."
  changeRegularGiftAmount(id: ID!, amountCents: Int!): RegularGiftChange!
  """
  Skips the payment due on date (YYYY-MM-DD), which must be the gift's next: nothing is charged
  then. A monthly gift's or instalments' later payments (and a finite plan's end) move a month
  later, so instalments keep their number of payments; every Friday and the seasons' nights keep
  their dates, that one dropped. Repeating it changes nothing; a date that is no longer the next is
  refused (SKIP_DATE_CHANGED), one already being charged too (SKIP_TOO_LATE). Card gifts only
  (canSkip): PayPal cannot skip one payment.
  """
  skipRegularGiftCharge(id: ID!, date: String!): RegularGiftChange!
  "Ends the gift for good; confirm must be true (the page asks the donor first). Repeating it changes nothing."
  cancelRegularGift(id: ID!, confirm: Boolean!): RegularGiftChange!
  """
  Starts a change of the card this gift is charged to: a SetupIntent for the page's card form.
  Nothing changes until Stripe says the new card was saved. PayPal gifts answer CARD_CHANGE_UNAVAILABLE
  (the donor changes how they pay in their PayPal account).
  """
  changeRegularGiftCard(id: ID!): CardChange!
  """
  Adds the gifts given without signing in with this account's e-mail to the account. Needs the
  e-mail verified by the user pool, a match after Unicode NFC (the domain's letters A-Z in any
  case, the part before @ exactly), and confirm: true. Repeating it adds nothing more.
  """
  claimGuestGifts(confirm: Boolean!): GuestGiftClaim!
}

type Profile {
  "The user pool's sub: the account's permanent id."
  id: ID!
  "The e-mail the user pool holds for the account (GetUser)."
  email: String
  "Whether the user pool has verified that e-mail."
  emailVerified: Boolean!
}

type GuestGiftClaim {
  "How many gifts were added by this request."
  claimed: Int!
  "A plain sentence for the donor."
  message: String!
}

enum DonationStatus {
  SUCCEEDED
  PROCESSING
  REQUIRES_PAYMENT_METHOD
  FAILED
  "Paid, then returned to the donor."
  REFUNDED
  "Paid, then contested by the donor's bank."
  DISPUTED
}

"One charge of a donation: a one-off gift, or one payment of a plan."
type Donation {
  "The charge's id: the donation's id for its first charge."
  id: ID!
  "The donation (the gift or plan) this charge belongs to."
  donationId: ID!
  "What the donor quotes to the office, e.g. NZF-7K2M-Q9XD."
  reference: String!
  "The fund's id, as in /pay/<fund>/: zakat, sadaqah, fitr, ..."
  fund: String!
  "once, monthly, monthly-instalments, weekly-friday, ramadan-nightly, ramadan-last-ten, dhul-hijjah-ten-days"
  schedule: String!
  amountCents: Int!
  feeCents: Int!
  totalCents: Int!
  currency: String!
  "The day of the charge, in Australia/Sydney."
  date: String!
  status: DonationStatus!
  "The plan it belongs to, for any schedule but once."
  regularGiftId: ID
  "Which charge of its schedule this is: 1 for the first."
  chargeNumber: Int!
  "How many charges the schedule has; null for one-off and open-ended gifts."
  chargeCount: Int
  "A failed charge the service will try again (a scheduled gift's): those days in Australia/Sydney, soonest first; empty otherwise."
  retryDates: [String!]!
  "Null until the payment has succeeded."
  receipt: Receipt
}

type Receipt {
  "The donation's reference; a plan's later charges add -02, -03, ..."
  number: String!
  donationId: ID!
  "Who the receipt is made out to: the first and last name given with the donation."
  donorName: String!
  fund: String!
  date: String!
  "What was paid: the gift and any covered fee."
  totalCents: Int!
  taxDeductible: Boolean!
  "2026 for a gift between 2025-07-01 and 2026-06-30."
  financialYear: Int!
}

type TaxSummary {
  financialYear: Int!
  "The first and last day of the year, YYYY-MM-DD."
  from: String!
  to: String!
  "Paid gifts to tax-deductible funds in the year."
  deductibleTotalCents: Int!
  receipts: [Receipt!]!
  "Per fund, deductible funds only, in fund order."
  funds: [FundTotal!]!
  "Paid gifts in the year to funds that are not tax-deductible (e.g. qurban), for the donor's records."
  nonDeductibleTotalCents: Int!
}

type FundTotal {
  fund: String!
  totalCents: Int!
  count: Int!
}

enum RegularGiftStatus {
  "Waiting for the first payment to succeed."
  PENDING
  ACTIVE
  PAUSED
  CANCELLED
  "Every charge of a finite schedule is paid."
  COMPLETED
}

type RegularGift {
  id: ID!
  "The donation's reference, e.g. NZF-7K2M-Q9XD."
  reference: String!
  fund: String!
  "monthly, weekly-friday, monthly-instalments, ramadan-nightly, ramadan-last-ten, dhul-hijjah-ten-days"
  schedule: String!
  "True for monthly and weekly gifts: charges go on until cancelled."
  openEnded: Boolean!
  "The gift per charge before fees, in cents."
  amountCents: Int!
  "The covered fee per charge (0 when the donor does not cover fees)."
  feeCents: Int!
  totalCents: Int!
  coversFees: Boolean!
  status: RegularGiftStatus!
  "The next charge, YYYY-MM-DD; null when paused, cancelled or complete."
  nextChargeDate: String
  "The last charge of a finite schedule, YYYY-MM-DD; null when open-ended."
  endDate: String
  "The day it was started, YYYY-MM-DD."
  startDate: String!
  "Charges paid so far (the 3 of '3 of 12')."
  paidCount: Int!
  "Charges in all of a finite schedule (the 12 of '3 of 12'); null when open-ended."
  chargeCount: Int
  "The whole gift of a finite schedule, every charge added up; null when open-ended."
  scheduleTotalCents: Int
  "The donation that started it."
  donationId: ID!
  "A new amount per charge (before fees) the donor asked for, waiting for their consent at PayPal; null when none."
  pendingAmountCents: Int
  "How many payments the donor skipped."
  skippedCount: Int!
  "Whether the next payment can be skipped (card gifts; PayPal cannot skip one payment)."
  canSkip: Boolean!
  """
  Whether a pause is taken (the page offers Pause only then): false only for card instalments whose
  Stripe schedule is not made yet (no first payment).
  """
  canPause: Boolean!
  "Where the payments would stand if the next were skipped; null when it cannot be."
  afterSkip: AfterSkip
  "card (Stripe: Change card takes a new one here) or paypal (the donor changes how they pay in PayPal)."
  paymentMethod: String!
  "The card it is charged to, as Stripe describes it (kept from Stripe's signed webhook); null for PayPal, or until Stripe has told us."
  card: PaymentCard
  "How it is paid, for the donor to read: 'Visa ending 4242, expires 12/2034', 'PayPal', or 'Card' while not known."
  paidWith: String!
}

type PaymentCard {
  "Visa, Mastercard, American Express, eftpos, … or Card."
  brand: String!
  "The card's last four digits."
  last4: String
  expMonth: Int
  expYear: Int
}

type AfterSkip {
  "The payment after the skipped one, YYYY-MM-DD."
  nextChargeDate: String
  "The last payment of a finite schedule, YYYY-MM-DD; null when open-ended."
  endDate: String
}

type CardChange {
  gift: RegularGift!
  "Unused (always null): the card is entered on the account page itself."
  url: String
  """
  Stripe's SetupIntent client secret for the account page's card form (Stripe's Payment Element,
  confirmed with stripe.confirmSetup). The new card becomes the gift's when Stripe's signed webhook
  says it was saved; a repeat of the request gives the same SetupIntent.
  """
  clientSecret: String
  "A plain sentence for the donor."
  message: String!
}

type RegularGiftChange {
  gift: RegularGift!
  "False when the gift was already in the requested state (a repeated request)."
  changed: Boolean!
  "A plain sentence for the donor, e.g. 'Your monthly gift to Zakat is paused.'"
  message: String!
  """
  The payment provider's page where the donor must agree to the change before it takes effect
  (PayPal asks its payer to agree to a new amount); null when nothing more is needed.
  """
  url: String
}
`;
