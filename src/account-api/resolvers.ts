/**
 * The account API's executable schema: the SDL plus root resolvers over the shared store. Each
 * resolver gets the verified donor from the context; the HTTP layer refuses a request without one,
 * so nothing here runs for a guest.
 */
// graphql 15 ships CommonJS (main) and ESM (module) builds with no "exports" map: Node gives
// graphql-http the CommonJS one, while bundlers and vitest would give us the ESM one, and a schema
// from one build fails the other's instanceof checks. Naming the file picks the same build for both.
import { buildSchema, type GraphQLSchema } from "graphql/index.js";
import { ACCOUNT_SCHEMA_SDL } from "./schema.js";
import type { AccountStore, DonorKey } from "./store.js";

export type AccountContext = {
  donor: DonorKey & { sub: string };
};

export function accountSchema(): GraphQLSchema {
  return buildSchema(ACCOUNT_SCHEMA_SDL);
}

type Args = Record<string, unknown>;

export function accountRootValue(store: AccountStore) {
  return {
    me: (_: Args, ctx: AccountContext) => ({ id: ctx.donor.sub, email: ctx.donor.email ?? null }),
    donations: (_: Args, ctx: AccountContext) => store.donations(ctx.donor),
    receipts: (_: Args, ctx: AccountContext) => store.receipts(ctx.donor),
    taxSummary: (args: Args, ctx: AccountContext) => store.taxSummary(ctx.donor, args.financialYear as number),
    regularGifts: (_: Args, ctx: AccountContext) => store.regularGifts(ctx.donor),
    pauseRegularGift: (args: Args, ctx: AccountContext) => store.pause(ctx.donor, String(args.id)),
    resumeRegularGift: (args: Args, ctx: AccountContext) => store.resume(ctx.donor, String(args.id)),
    changeRegularGiftAmount: (args: Args, ctx: AccountContext) =>
      store.changeAmount(ctx.donor, String(args.id), args.amountCents as number),
    cancelRegularGift: (args: Args, ctx: AccountContext) =>
      store.cancel(ctx.donor, String(args.id), args.confirm === true),
  };
}
