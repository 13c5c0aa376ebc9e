/**
 * The account API over real HTTP on 127.0.0.1, for the API's own tests: cognito-local issues the
 * tokens (and answers GetUser), the payments dev server records donations into the account store,
 * the account API dev server answers GraphQL. Raw node:http on the client side, so a test sees
 * exactly the status, headers and bytes a browser or an attacker would.
 */
import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { PlanProvider } from "../../src/account-api/plan-provider.js";
import { createAccountStore, type MemoryAccountStore } from "../../src/account-api/store.js";
import { createTokenVerifier, type TokenVerifier } from "../../src/account-api/tokens.js";
import { createUserPoolDirectory } from "../../src/account-api/user-pool.js";
import {
  recordDonationsInto,
  startAccountApiDevServer,
  type AccountApiDevServer,
} from "../../src/server/account-api-dev-server.js";
import { startPaymentsDevServer, type PaymentsDevServer } from "../../src/server/payments-dev-server.js";
import { startCognitoLocal, type CognitoLocal } from "./cognito-local.js";

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely
  json: any;
  text: string;
}

export function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        ok({ status: res.statusCode ?? 0, headers: res.headers, json, text });
      });
    });
    req.on("error", fail);
    req.end(body);
  });
}

export interface Account {
  email: string;
  sub: string;
  access: string;
  id: string;
}

export interface Harness {
  cognito: CognitoLocal;
  payments: PaymentsDevServer;
  account: AccountApiDevServer;
  store: MemoryAccountStore;
  verifyToken: TokenVerifier;
  logged: string[];
  /** Signs up, confirms (the e-mail is then verified) and signs in. */
  signUp(email: string, password?: string): Promise<Account>;
  signIn(email: string, password?: string): Promise<Account>;
  gql(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<Raw>;
  /** POST /donations on the payments dev server, then sets its outcome; returns the donation id. */
  donate(
    body: Record<string, unknown>,
    status: "succeeded" | "failed" | "requires_payment_method",
    token?: string,
  ): Promise<string>;
  stop(): Promise<void>;
}

export const PASSWORD = "long enough";

export async function startAccountHarness(
  options: { now?: () => Date; provider?: PlanProvider } = {},
): Promise<Harness> {
  const cognito = await startCognitoLocal();
  const logged: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (_: string, m: string) => void logged.push(`warn ${m}`),
    error: (_: string, m: string) => void logged.push(`error ${m}`),
  };
  const store = createAccountStore({
    ...(options.now ? { now: options.now } : {}),
    ...(options.provider ? { provider: options.provider } : {}),
  });
  const verifyToken = createTokenVerifier({
    userPoolId: cognito.userPoolId,
    clientId: cognito.clientId,
    endpoint: cognito.endpoint,
  });
  const userPool = createUserPoolDirectory({ userPoolId: cognito.userPoolId, endpoint: cognito.endpoint });
  const payments = await startPaymentsDevServer({
    ...(options.now ? { now: options.now } : {}),
    logger,
    onDonationCreated: recordDonationsInto(store, verifyToken, logger),
  });
  const account = await startAccountApiDevServer({
    store,
    verifyToken,
    userPool,
    logger,
    isRevoked: (t) => cognito.isRevoked(t),
  });

  async function signIn(email: string, password = PASSWORD): Promise<Account> {
    const auth = await cognito.call<{ AuthenticationResult: { AccessToken: string; IdToken: string } }>(
      "InitiateAuth",
      {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: cognito.clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      },
    );
    const access = auth.AuthenticationResult.AccessToken;
    const sub = JSON.parse(Buffer.from(access.split(".")[1]!, "base64url").toString()).sub as string;
    return { email, sub, access, id: auth.AuthenticationResult.IdToken };
  }

  return {
    cognito,
    payments,
    account,
    store,
    verifyToken,
    logged,
    signIn,
    async signUp(email, password = PASSWORD) {
      await cognito.call("SignUp", {
        ClientId: cognito.clientId,
        Username: email,
        Password: password,
        UserAttributes: [{ Name: "email", Value: email }],
      });
      await cognito.call("ConfirmSignUp", {
        ClientId: cognito.clientId,
        Username: email,
        ConfirmationCode: (await cognito.readStoredCode(email)) ?? cognito.code,
      });
      return signIn(email, password);
    },
    gql(query, variables = {}, token = null) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "application/graphql-response+json",
      };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      return raw(account.graphqlUrl, "POST", headers, JSON.stringify({ query, variables }));
    },
    async donate(body, status, token) {
      const donor = { firstName: "Amina", lastName: "Khan", email: "amina@example.com", phone: "0412 345 678" };
      const headers: Record<string, string> = { "content-type": "application/json", "idempotency-key": randomUUID() };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await raw(
        `${payments.url}/donations`,
        "POST",
        headers,
        JSON.stringify({ currency: "AUD", frequency: "once", anonymous: false, coverFees: false, donor, ...body }),
      );
      if (res.status !== 201) throw new Error(`POST /donations answered ${res.status}: ${res.text}`);
      payments.setOutcome(res.json.donationId, status);
      return res.json.donationId as string;
    },
    async stop() {
      await account.stop();
      await payments.stop();
      await cognito.stop();
    },
  };
}
