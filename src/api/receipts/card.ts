/**
 * What a receipt says of the card: its brand and last four digits, from the saved payment method
 * Stripe holds. A lookup that fails leaves "Card" without digits rather than holding up the receipt.
 */
import type Stripe from "stripe";
import type { PaymentMethodShown } from "../../receipts/receipt.js";

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  eftpos_au: "eftpos",
};

/** A card network's name as donors know it ("Visa"); "Card" for one we do not name. */
export const brandName = (brand: string | null | undefined): string => (brand && BRANDS[brand]) || "Card";

export async function cardOf(
  stripe: Stripe | null,
  paymentMethodId: string | null | undefined,
): Promise<PaymentMethodShown> {
  if (!stripe || !paymentMethodId) return { brand: "Card" };
  try {
    const method = await stripe.paymentMethods.retrieve(paymentMethodId);
    const card = method.card;
    if (!card) return { brand: method.type === "au_becs_debit" ? "Bank account" : "Card" };
    return {
      brand: brandName(card.brand),
      ...(card.last4 && /^\d{4}$/.test(card.last4) ? { last4: card.last4 } : {}),
    };
  } catch {
    return { brand: "Card" };
  }
}
