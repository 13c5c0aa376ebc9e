/**
 * Not a Stripe endpoint: the stand-in's way to end a 3-D Secure challenge, which real Stripe.js
 * runs with the bank. A browser Stripe.js stand-in posts here, with the publishable key and the
 * intent's client secret, what the cardholder did: `outcome=succeed` or `outcome=fail`. Tests can
 * call the handle's `authenticate(intentId, outcome)` instead.
 */
import { completeAuthentication } from "../charging.js";
import { invalidRequest } from "../errors.js";
import type { Route } from "../server.js";
import type { Obj, Store } from "../store.js";
import { checkClientSecret, publicView } from "./payment-intents.js";
import { completeSetupAuthentication } from "./setup-intents.js";

export function authenticate(store: Store, intentId: string, outcome: "succeed" | "fail"): Obj {
  if (intentId.startsWith("seti_"))
    return completeSetupAuthentication(store, store.require(intentId, "setup_intent", "intent"), outcome);
  return completeAuthentication(store, store.require(intentId, "payment_intent", "intent"), outcome);
}

export const authenticationRoutes: Route[] = [
  {
    method: "POST",
    path: "/__stand-in/authenticate",
    publishable: true,
    handler({ store, params: p, auth }) {
      const secret = p.string("client_secret", { required: true, max: 300 })!;
      const outcome = p.oneOf("outcome", ["succeed", "fail"] as const, { required: true })!;
      const id = secret.split("_secret_")[0]!;
      const intent = store.get(id);
      if (!intent || (intent.object !== "payment_intent" && intent.object !== "setup_intent"))
        throw invalidRequest("No intent has this client_secret.", "client_secret");
      checkClientSecret(p, auth, intent, intent.object === "setup_intent" ? "SetupIntent" : "PaymentIntent");
      p.done();
      const result = authenticate(store, id, outcome);
      return auth === "publishable" ? publicView(result) : result;
    },
  },
];
