/**
 * A page's cookie jar for the auth tests that run in Node: a happy-dom page at an https address
 * whose `document` the test makes global (`vi.stubGlobal("document", jar.document)`, which also
 * keeps the file isolated from the others), so the account adapter's own storage (aws-amplify's
 * CookieStorage, on js-cookie) and its listing of the session's cookies (document.cookie) run as
 * they do on /account/. Only `document` is global: Amplify still finds no `window`, as in Node.
 */
import { Window } from "happy-dom";

export interface PageCookies {
  /** The page's document, for the test to make global. */
  document: Document;
  /** The names of the cookies the page holds, decoded. */
  names(): string[];
  /** One cookie's value, decoded (undefined when the page has none of that name). */
  get(name: string): string | undefined;
  /** Expires every cookie, as a fresh browser profile would start. */
  clear(): void;
  /** Closes the page. */
  close(): Promise<void>;
}

export function pageCookies(url = "https://nzf.example/account/"): PageCookies {
  const window = new Window({ url });
  const pairs = () =>
    window.document.cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        return [pair.slice(0, at), pair.slice(at + 1)] as const;
      });
  return {
    document: window.document as unknown as Document,
    names: () => pairs().map(([name]) => decodeURIComponent(name)),
    get: (name) => {
      const found = pairs().find(([raw]) => decodeURIComponent(raw) === name);
      return found && decodeURIComponent(found[1]);
    },
    clear() {
      for (const [raw] of pairs()) window.document.cookie = `${raw}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    },
    async close() {
      await window.happyDOM.close();
    },
  };
}
