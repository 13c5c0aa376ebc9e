/**
 * In Lambda the secrets live in Secrets Manager, not in the function's configuration: the template
 * passes their ARNs (NZF_STRIPE_SECRET_ARN: the stack's JSON secret with STRIPE_SECRET_KEY,
 * STRIPE_WEBHOOK_SECRET and the other settings src/core/options.ts marks `secret`, such as
 * NZF_PAYPAL_CLIENT_SECRET and PRISMIC_ACCESS_TOKEN; NZF_DATABASE_SECRET_ARN: the RDS-managed secret
 * with username, password, host, port, dbname), read once per warm instance. A rotated key is picked up by new instances;
 * docs/deploy.md says how to roll one.
 */
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { secretVariables } from "./lambda-settings.js";

export async function readLambdaSecrets(env: Record<string, string | undefined>): Promise<Record<string, string>> {
  const client = new SecretsManagerClient({});
  const read = async (arn: string) => {
    const answer = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    return JSON.parse(answer.SecretString ?? "{}") as Record<string, unknown>;
  };
  const out: Record<string, string> = {};
  if (env.NZF_STRIPE_SECRET_ARN) {
    const stripe = await read(env.NZF_STRIPE_SECRET_ARN);
    for (const name of secretVariables()) if (typeof stripe[name] === "string") out[name] = stripe[name] as string;
  }
  if (env.NZF_DATABASE_SECRET_ARN && !env.DATABASE_URL) {
    const db = await read(env.NZF_DATABASE_SECRET_ARN);
    const host = env.NZF_DATABASE_HOST ?? String(db.host);
    const port = env.NZF_DATABASE_PORT ?? String(db.port ?? 5432);
    const name = env.NZF_DATABASE_NAME ?? String(db.dbname ?? "nzf");
    out.DATABASE_URL = `postgres://${encodeURIComponent(String(db.username))}:${encodeURIComponent(String(db.password))}@${host}:${port}/${name}?sslmode=no-verify`;
  }
  return out;
}
