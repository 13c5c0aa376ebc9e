/** `POST /donations`, `GET /donations/{id}` and `PATCH /donations/{id}` (docs/payments-api.md). */
import type { Hono } from "hono";
import { createDonation } from "../donations/create.js";
import { stateBody } from "../donations/rows.js";
import { updateDonation } from "../donations/update.js";
import type { ApiDeps } from "../deps.js";
import { errors } from "../errors.js";
import { send } from "../reply.js";
import { readKeyedJson } from "./request-checks.js";

export function donationRoutes(app: Hono, deps: ApiDeps): void {
  app.post("/donations", async (c) => {
    const read = await readKeyedJson(c);
    if (!read.ok) return send(c, read.reply);
    return send(
      c,
      await createDonation(deps, { key: read.key, body: read.body, authorization: c.req.header("authorization") }),
    );
  });
  app.all("/donations", (c) => send(c, errors.method("POST")));

  app.get("/donations/:id", async (c) => {
    const row = await deps.db
      .selectFrom("donations")
      .selectAll()
      .where("id", "=", c.req.param("id"))
      .executeTakeFirst();
    return send(c, row ? { status: 200, body: stateBody(row) } : errors.notFound());
  });

  app.patch("/donations/:id", async (c) => {
    const read = await readKeyedJson(c);
    if (!read.ok) return send(c, read.reply);
    return send(
      c,
      await updateDonation(deps, {
        donationId: c.req.param("id"),
        donationKey: c.req.header("donation-key"),
        key: read.key,
        body: read.body,
      }),
    );
  });
  app.all("/donations/:id", (c) => send(c, errors.method("GET, PATCH")));
}
