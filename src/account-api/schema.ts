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
  "Every donation made while signed in, and guest gifts the donor added (claimGuestGifts), newest first."
  donations: [Donation!]!
  "One receipt per paid donation, newest first."
  receipts: [Receipt!]!
  "The tax summary of one Australian financial year (1 July to 30 June), e.g. 2026 for 2025-07-01 to 2026-06-30."
  taxSummary(financialYear: Int!): TaxSummary!
  "Monthly and weekly gifts, active, paused or cancelled."
  regularGifts: [RegularGift!]!
  """
  How many gifts were given without signing in with this account's e-mail, which the donor may add
  (claimGuestGifts). 0 unless the user pool has verified the e-mail.
  """
  claimableGuestGifts: Int!
}

type Mutation {
  "Stops charges until resumed. Repeating it changes nothing."
  pauseRegularGift(id: ID!): RegularGiftChange!
  "Restarts a paused gift from the next charge date. Repeating it changes nothing."
  resumeRegularGift(id: ID!): RegularGiftChange!
  "Sets the gift per charge (before any covered fee), in cents. Setting the same amount again changes nothing."
  changeRegularGiftAmount(id: ID!, amountCents: Int!): RegularGiftChange!
  "Ends the gift for good; confirm must be true (the page asks the donor first). Repeating it changes nothing."
  cancelRegularGift(id: ID!, confirm: Boolean!): RegularGiftChange!
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
}

type Donation {
  id: ID!
  "What the donor quotes to the office, e.g. NZF-7K2M-Q9XD."
  reference: String!
  "The fund's id, as in /pay/<fund>/: zakat, sadaqah, fitr, ..."
  fund: String!
  "once, monthly, weekly-friday, ramadan-nightly, ramadan-last-ten, dhul-hijjah-ten-days"
  schedule: String!
  amountCents: Int!
  feeCents: Int!
  totalCents: Int!
  currency: String!
  "The day it was made, in Australia/Sydney."
  date: String!
  status: DonationStatus!
  "Set for a monthly or weekly gift."
  regularGiftId: ID
  "Null until the payment has succeeded."
  receipt: Receipt
}

type Receipt {
  "The donation's reference."
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
}

type RegularGift {
  id: ID!
  fund: String!
  "monthly or weekly-friday"
  schedule: String!
  amountCents: Int!
  "The covered fee per charge (0 when the donor does not cover fees)."
  feeCents: Int!
  totalCents: Int!
  coversFees: Boolean!
  status: RegularGiftStatus!
  "The next charge, YYYY-MM-DD; null when paused or cancelled."
  nextChargeDate: String
  "The donation that started it."
  donationId: ID!
}

type RegularGiftChange {
  gift: RegularGift!
  "False when the gift was already in the requested state (a repeated request)."
  changed: Boolean!
  "A plain sentence for the donor, e.g. 'Your monthly gift to Zakat is paused.'"
  message: String!
}
`;
