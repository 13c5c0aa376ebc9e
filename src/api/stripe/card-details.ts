/**
 * The card a gift is charged to, for the account ("Visa ending 4242, expires 12/2034"): read from
 * Stripe's payment method with the secret key when Stripe's signed webhook says a card was used or
 * saved for the gift (its first payment, a saved card for later charges, a change of card), and
 * kept on the donation beside the payment method it describes. Nothing the browser sends is
 * written here. Only the card the gift uses now is described: an event about an older card
 * changes nothing. A lookup that fails leaves the card undescribed (the account then says "Card")
 * rather than failing the webhook, and the next event tries again.
 */
import type Stripe from "stripe";
import type { ApiDeps } from "../deps.js";
import { brandName } from "../receipts/card.js";

export async function rememberCard(
  deps: Pick<ApiDeps, "db" | "logger">,
  stripe: Stripe | null | undefined,
  donationId: string,
  paymentMethodId: string | null | undefined,
): Promise<void> {
  if (!stripe || !paymentMethodId) return;
  let method: Stripe.PaymentMethod;
  try {
    method = await stripe.paymentMethods.retrieve(paymentMethodId);
  } catch (error) {
    deps.logger?.warn("api", `card of ${donationId} not read from Stripe: ${(error as Error).message}`);
    return;
  }
  const card = method.card;
  const month = card?.exp_month;
  const year = card?.exp_year;
  await deps.db
    .updateTable("donations")
    .set({
      // A gift whose card the event is the first to name (its invoice was recorded first) takes it.
      stripe_payment_method_id: paymentMethodId,
      card_payment_method_id: paymentMethodId,
      card_brand: card ? brandName(card.brand) : method.type === "au_becs_debit" ? "Bank account" : "Card",
      card_last4: card?.last4 && /^\d{4}$/.test(card.last4) ? card.last4 : null,
      card_exp_month: Number.isInteger(month) && month! >= 1 && month! <= 12 ? month! : null,
      card_exp_year: Number.isInteger(year) && year! >= 2000 && year! <= 2200 ? year! : null,
    })
    // Still the gift's card: a late event about the card it had before describes nothing now.
    .where("id", "=", donationId)
    .where((eb) =>
      eb.or([eb("stripe_payment_method_id", "=", paymentMethodId), eb("stripe_payment_method_id", "is", null)]),
    )
    .execute();
}
