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
import { accountTexts, type AccountTexts } from "../account/texts.js";

export interface AccountIslandProps {
  auth: PublicAuthConfig | null;
  texts?: Partial<AccountTexts>;
  /** Who issues receipts (the global document's site name and ABN); empty parts are left out. */
  issuer?: ReceiptIssuer;
}

export default function AccountIsland({ auth, texts: overrides, issuer }: AccountIslandProps) {
  const texts = accountTexts(overrides);
  return (
    <div className="account">
      {auth ? (
        <AccountApp
          intro={texts.intro}
          issuer={issuer}
          loadAdapter={() => import("../../auth/amplify.js").then((m) => m.createAmplifyAdapter(auth))}
          accountApiUrl={auth.accountApiUrl}
          mfa={auth.mfa !== undefined}
        />
      ) : (
        <p role="status">{texts.unavailable}</p>
      )}
    </div>
  );
}
