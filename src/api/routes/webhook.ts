/** `POST /stripe/webhook`: the raw body goes to the signature check as it arrived. */
import type { Hono } from "hono";
import type { ApiDeps } from "../deps.js";
import { errors } from "../errors.js";
import { send } from "../reply.js";
import { receivePayPalWebhook } from "../paypal/webhook.js";
import { receiveWebhook } from "../stripe/webhook.js";

export function webhookRoutes(app: Hono, deps: ApiDeps): void {
  app.post("/stripe/webhook", async (c) =>
    send(c, await receiveWebhook(deps, await c.req.text(), c.req.header("stripe-signature"))),
  );
  app.all("/stripe/webhook", (c) => send(c, errors.method("POST")));
  app.post("/paypal/webhook", async (c) =>
    send(c, await receivePayPalWebhook(deps, await c.req.text(), c.req.header())),
  );
  app.all("/paypal/webhook", (c) => send(c, errors.method("POST")));
}
