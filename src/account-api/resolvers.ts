/**
 * The account API's executable schema: the SDL plus resolvers over the account store. Each
 * resolver gets the verified donor (the access token's `sub`) from the context; the HTTP layer
 * (graphql.ts) refuses a request without one, so nothing here runs for a guest.
 */
import { createSchema } from "graphql-yoga";
import { ACCOUNT_SCHEMA_SDL } from "./schema.js";
import { AccountError, type AccountStore } from "./store.js";
import type { PoolProfile, UserPoolDirectory } from "./user-pool.js";

export interface AccountContext {
  donor: { sub: string };
  /** The donor's verified access token, for GetUser on their behalf. */
  accessToken: string;
}

export interface ResolverDeps {
  store: AccountStore;
  userPool: UserPoolDirectory;
}

type Args = Record<string, unknown>;

/** What the pool says of the donor, asked once per request (several fields may need it). */
const profiles = new WeakMap<AccountContext, Promise<PoolProfile>>();
function profileOf(deps: ResolverDeps, ctx: AccountContext): Promise<PoolProfile> {
  let profile = profiles.get(ctx);
  if (!profile) {
    profile = deps.userPool.profile(ctx.accessToken);
    profiles.set(ctx, profile);
  }
  return profile;
}

export function accountResolvers(deps: ResolverDeps) {
  const { store } = deps;
  return {
    Query: {
      me: async (_: unknown, __: Args, ctx: AccountContext) => {
        const profile = await profileOf(deps, ctx);
        return { id: ctx.donor.sub, email: profile.email, emailVerified: profile.emailVerified };
      },
      donations: (_: unknown, __: Args, ctx: AccountContext) => store.donations(ctx.donor),
      receipts: (_: unknown, __: Args, ctx: AccountContext) => store.receipts(ctx.donor),
      taxSummary: (_: unknown, args: Args, ctx: AccountContext) =>
        store.taxSummary(ctx.donor, args.financialYear as number),
      regularGifts: (_: unknown, __: Args, ctx: AccountContext) => store.regularGifts(ctx.donor),
      claimableGuestGifts: async (_: unknown, __: Args, ctx: AccountContext) => {
        const profile = await profileOf(deps, ctx);
        // An unverified e-mail is only what someone typed: it is offered nothing.
        return profile.emailVerified && profile.email ? store.guestGiftsFor(profile.email) : 0;
      },
    },
    Mutation: {
      pauseRegularGift: (_: unknown, args: Args, ctx: AccountContext) => store.pause(ctx.donor, String(args.id)),
      resumeRegularGift: (_: unknown, args: Args, ctx: AccountContext) => store.resume(ctx.donor, String(args.id)),
      changeRegularGiftAmount: (_: unknown, args: Args, ctx: AccountContext) =>
        store.changeAmount(ctx.donor, String(args.id), args.amountCents as number),
      skipRegularGiftCharge: (_: unknown, args: Args, ctx: AccountContext) =>
        store.skipNext(ctx.donor, String(args.id), String(args.date)),
      cancelRegularGift: (_: unknown, args: Args, ctx: AccountContext) =>
        store.cancel(ctx.donor, String(args.id), args.confirm === true),
      changeRegularGiftCard: (_: unknown, args: Args, ctx: AccountContext) =>
        store.changeCard(ctx.donor, String(args.id)),
      claimGuestGifts: async (_: unknown, args: Args, ctx: AccountContext) => {
        if (args.confirm !== true) {
          throw new AccountError(
            "CONFIRMATION_REQUIRED",
            "Confirm that the gifts given with your e-mail address are yours, then try again.",
          );
        }
        const profile = await profileOf(deps, ctx);
        if (!profile.email || !profile.emailVerified) {
          throw new AccountError(
            "EMAIL_NOT_VERIFIED",
            "Verify your e-mail address first (we send a code to it), then add the gifts you gave with it.",
          );
        }
        const claimed = await store.claimGuestGifts(ctx.donor, profile.email);
        return {
          claimed,
          message:
            claimed === 0
              ? "There are no gifts given with your e-mail address waiting to be added."
              : `${claimed === 1 ? "1 gift" : `${claimed} gifts`} given with ${profile.email} ${claimed === 1 ? "is" : "are"} now in your account.`,
        };
      },
    },
  };
}

export function accountSchema(deps: ResolverDeps) {
  return createSchema<AccountContext>({ typeDefs: ACCOUNT_SCHEMA_SDL, resolvers: accountResolvers(deps) });
}
