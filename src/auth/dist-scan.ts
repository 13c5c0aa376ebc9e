/**
 * "No token or secret in dist/": a pure check the build (or CI) runs over every emitted text file.
 * It looks for what would be a leak on a static site: a JSON Web Token (a pasted id/access token),
 * an AWS access key id, or a Cognito app client secret in config. Pool and client ids are public
 * and not reported.
 */

export interface AuthSecretFinding {
  kind: "jwt" | "aws-access-key" | "client-secret";
  /** The first characters only, so the report itself does not leak the secret. */
  preview: string;
}

// header.payload.signature, both JSON parts base64url of "{"... ("eyJ").
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g;
const AWS_ACCESS_KEY = /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g;
const CLIENT_SECRET =
  /["']?(?:userPoolClientSecret|clientSecret|ClientSecret)["']?\s*[:=]\s*["']([A-Za-z0-9+/=_-]{20,})["']/g;

export function findAuthSecrets(text: string): AuthSecretFinding[] {
  const findings: AuthSecretFinding[] = [];
  const preview = (s: string) => `${s.slice(0, 8)}…`;
  // Each pattern runs only where its fixed part occurs: a plain substring search is many times
  // faster than a pattern tried at every position, and the build scans every new page.
  if (text.includes("eyJ")) for (const m of text.matchAll(JWT)) findings.push({ kind: "jwt", preview: preview(m[0]) });
  if (text.includes("AKIA") || text.includes("ASIA"))
    for (const m of text.matchAll(AWS_ACCESS_KEY)) findings.push({ kind: "aws-access-key", preview: preview(m[0]) });
  if (text.includes("lientSecret"))
    for (const m of text.matchAll(CLIENT_SECRET)) findings.push({ kind: "client-secret", preview: preview(m[1]!) });
  return findings;
}
