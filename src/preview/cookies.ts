/**
 * The two cookies of the editor preview:
 *
 * - `io.prismic.preview` (the name `@prismicio/client` exports as `cookie.preview`), written by the
 *   Prismic toolbar and by our resolver page. Its value is URL-encoded JSON keyed by repository
 *   host, `{"<repo>.prismic.io": {"preview": "<preview ref URL>"}}`, sometimes with other keys
 *   (`_tracker`); older toolbars wrote the bare preview ref URL. The preview is active only when
 *   this cookie holds a ref for our repository (another repository's preview is not ours to show).
 * - `prismic-auth-token-<repo>`: the content access token an editor typed into the prompt, one
 *   cookie per repository (a token for one repository is never sent to another), sent as
 *   `access_token` on preview requests.
 *
 * Pure functions over a `document.cookie`-style string, plus thin helpers for the real document.
 * Nothing here touches DOM globals at import time.
 */

export const PREVIEW_COOKIE_NAME = "io.prismic.preview";
export const ACCESS_TOKEN_COOKIE_PREFIX = "prismic-auth-token-";
/** A content access token does not expire by itself; a year, as long as the account's sign-in cookies last. */
export const ACCESS_TOKEN_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The raw (still encoded) value of a cookie in a `name=value; name2=value2` string. */
export function readCookie(cookieString: string, name: string): string | undefined {
  for (const part of cookieString.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (safeDecode(part.slice(0, eq).trim()) === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function repositoryHostKey(repositoryName: string): string {
  return `${repositoryName}.prismic.io`;
}

function parsePreviewObject(decoded: string): Record<string, unknown> | undefined {
  if (!decoded.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(decoded);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a preview ref URL belongs to the repository (`https://nzf2020.prismic.io/previews/...`). */
export function isRefForRepository(ref: string, repositoryName: string): boolean {
  try {
    const host = new URL(ref).hostname.toLowerCase();
    return host.split(".")[0] === repositoryName.toLowerCase();
  } catch {
    return false;
  }
}

/** The preview ref for this repository from the cookie string, or undefined when not previewing it. */
export function previewRefFromCookies(cookieString: string, repositoryName: string): string | undefined {
  const raw = readCookie(cookieString, PREVIEW_COOKIE_NAME);
  if (!raw) return undefined;
  const decoded = safeDecode(raw);
  const object = parsePreviewObject(decoded);
  if (object) {
    const entry = object[repositoryHostKey(repositoryName)];
    const preview = entry && typeof entry === "object" ? (entry as Record<string, unknown>).preview : undefined;
    return typeof preview === "string" && preview !== "" ? preview : undefined;
  }
  return isRefForRepository(decoded, repositoryName) ? decoded : undefined;
}

export function isPreviewActive(cookieString: string, repositoryName: string): boolean {
  return previewRefFromCookies(cookieString, repositoryName) !== undefined;
}

export interface CookieAttributes {
  /** Adds `Secure`: pass true on https pages. */
  secure: boolean;
  maxAgeSeconds?: number;
}

function serialize(name: string, value: string, attributes: CookieAttributes): string {
  const parts = [`${name}=${value}`, "Path=/", "SameSite=Lax"];
  if (attributes.maxAgeSeconds !== undefined) parts.push(`Max-Age=${attributes.maxAgeSeconds}`);
  if (attributes.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * The `Set-Cookie`-style string that records `ref` as this repository's preview, keeping what the
 * toolbar stored for other keys. A session cookie: the preview ends with the browser session.
 */
export function previewCookieFor(
  cookieString: string,
  repositoryName: string,
  ref: string,
  attributes: CookieAttributes,
): string {
  const raw = readCookie(cookieString, PREVIEW_COOKIE_NAME);
  const existing = raw ? parsePreviewObject(safeDecode(raw)) : undefined;
  const value = { ...existing, [repositoryHostKey(repositoryName)]: { preview: ref } };
  return serialize(PREVIEW_COOKIE_NAME, encodeURIComponent(JSON.stringify(value)), attributes);
}

export function accessTokenCookieName(repositoryName: string): string {
  return ACCESS_TOKEN_COOKIE_PREFIX + repositoryName;
}

/** The stored access token for the repository, or undefined. */
export function accessTokenFromCookies(cookieString: string, repositoryName: string): string | undefined {
  const raw = readCookie(cookieString, accessTokenCookieName(repositoryName));
  if (raw === undefined || raw === "") return undefined;
  return safeDecode(raw);
}

export function accessTokenCookie(
  repositoryName: string,
  token: string,
  attributes: Pick<CookieAttributes, "secure">,
): string {
  return serialize(accessTokenCookieName(repositoryName), encodeURIComponent(token), {
    secure: attributes.secure,
    maxAgeSeconds: ACCESS_TOKEN_MAX_AGE_SECONDS,
  });
}

export function clearAccessTokenCookie(repositoryName: string, attributes: Pick<CookieAttributes, "secure">): string {
  return serialize(accessTokenCookieName(repositoryName), "", { secure: attributes.secure, maxAgeSeconds: 0 });
}

/** Reading and writing cookies: the document's (documentCookieJar), passed to run-preview.ts by the island. */
export interface CookieJar {
  read(): string;
  write(setCookie: string): void;
  /** True on https pages: cookies then get `Secure`. */
  secure: boolean;
}

/** The real document's cookies. Call it in the browser only (it reads `document` when called). */
export function documentCookieJar(doc: Document = document): CookieJar {
  return {
    read: () => doc.cookie,
    write: (setCookie) => {
      doc.cookie = setCookie;
    },
    secure: doc.location?.protocol === "https:",
  };
}
