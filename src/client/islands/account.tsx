/**
 * The /account island (islands protocol: default export, JSON props, server-rendered then
 * hydrated). The auth library is imported lazily inside an effect, so the server render never
 * touches it and only this page's bundle pulls it in. With no user pool configured at build time
 * (`auth: null`) it only says that sign-in is unavailable. The page template owns the <h1>; each
 * step of the flow is an <h2>.
 */
import type { PublicAuthConfig } from "../../auth/types.js";
import { AccountApp } from "../account/account-app.js";
import type { ReceiptIssuer } from "../account/printable.js";
import { StripeKey } from "../account/stripe-key.js";
import { accountTexts, type AccountTexts } from "../account/texts.js";

export interface AccountIslandProps {
  auth: PublicAuthConfig | null;
  texts?: Partial<AccountTexts>;
  /** Who issues receipts (the global document's site name and ABN); empty parts are left out. */
  issuer?: ReceiptIssuer;
  /** The site's Stripe publishable key, for a regular gift's new card; absent without payments settings. */
  stripeKey?: string | null;
}

export default function AccountIsland({ auth, texts: overrides, issuer, stripeKey = null }: AccountIslandProps) {
  const texts = accountTexts(overrides);
  return (
    <div className="account">
      {auth ? (
        <StripeKey.Provider value={stripeKey}>
          <AccountApp
            intro={texts.intro}
            issuer={issuer}
            loadAdapter={() => import("../../auth/amplify.js").then((m) => m.createAmplifyAdapter(auth))}
            accountApiUrl={auth.accountApiUrl}
            mfa={auth.mfa !== undefined}
          />
        </StripeKey.Provider>
      ) : (
        <p role="status">{texts.unavailable}</p>
      )}
    </div>
  );
}
