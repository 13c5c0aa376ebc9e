/**
 * The account API's limits on a GraphQL request: its size in tokens, depth, aliases, directives
 * and cost (GraphQL Armor, checked while parsing and validating), and the time budget of the whole
 * request, token check included. Kept apart from graphql.ts, which applies them, so the handler's
 * time-budget test runs it unchanged on a short budget by mocking this module
 * (test/account-api/graphql.test.ts).
 */
export const LIMITS = {
  maxTokens: 400,
  maxDepth: 6,
  maxAliases: 8,
  maxDirectives: 10,
  maxCost: 200,
  /** The whole request, token check included. */
  timeBudgetMs: 5000,
};
