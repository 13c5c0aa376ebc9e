/**
 * The /account page in a real fixture build of the sample site: the account island with the
 * document's texts, the "unavailable" text as plain HTML when no user pool is configured, the account bundle on
 * /account only, and the build refusing to publish a token or client secret planted in the public
 * configuration (naming the file, never printing the secret).
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFile, stat } from "node:fs/promises";
import { builtinModules } from "node:module";
import { join } from "node:path";
import fg from "fast-glob";
import { createFixture, type Fixture } from "../support/build-fixture.js";
import { resolveAuthConfig } from "../../src/auth/config.js";
import { pageScriptUrls } from "../../bench/page-script-urls.js";
import { NzfError } from "../../src/core/errors.js";

const fixtures: Fixture[] = [];
afterAll(async () => {
  for (const f of fixtures) await f.cleanup();
});

async function fixture(): Promise<Fixture> {
  const f = await createFixture({ sample: true });
  fixtures.push(f);
  return f;
}

const POOL = { userPoolId: "ap-southeast-2_Abc123xyz", userPoolClientId: "4s0mepublicclientid0123" };
// From content-cache/sample/snapshot.json, document account_page (read by hand).
// The sample account page's texts (scripts/sample/info-pages.ts), which promise only what the page does.
const UNAVAILABLE =
  "Sign-in is unavailable at the moment; please try again later. You can still calculate and give zakat without an account, and we can e-mail you a copy of a receipt: write to info@nzf.org.au.";
const SIGNED_OUT = "Sign in with your e-mail address and password.";

/** The island's serialized props on a page (the `<script type="application/json">` after it). */
function islandProps(html: string, name: string): unknown {
  const id = html.match(new RegExp(`data-island="${name}" data-island-id="(i\\d+)"`))?.[1];
  if (!id) return undefined;
  const json = html.match(
    new RegExp(`<script type="application/json" data-island-props="${id}">([^<]*)</script>`),
  )?.[1];
  return json ? JSON.parse(json) : undefined;
}

describe("/account in a fixture build", () => {
  it("with no user pool the page keeps its heading and says sign-in is unavailable, from the document", async () => {
    const f = await fixture();
    await f.run({ publicConfig: { auth: null } });
    const html = await readFile(join(f.config.outDir, "account/index.html"), "utf8");
    expect(html).toMatch(/<h1[^>]*>My account<\/h1>/);
    // Plain HTML, the island's own markup without the island: nothing to hydrate, so no script and no React.
    expect(islandProps(html, "account")).toBeUndefined();
    expect(html).not.toContain('data-island="account"');
    expect(html).toContain(`<div class="account"><p role="status">${UNAVAILABLE}</p></div>`);
    expect(pageScriptUrls(html).filter((u) => !/\/page-scripts-[^/]+\.js$/.test(u))).toEqual([]);
    // Rendered by a templates bundle that leaves the auth library out (src/auth/amplify-stub.ts):
    // importing it cost each render worker about 0.6 s. The browser's account bundle still has it.
    const [templates] = await fg("templates-bundled/entry-*.cjs", { cwd: f.config.workDir, absolute: true });
    const compiled = await readFile(templates!, "utf8");
    expect(compiled).toContain("amplify-stub");
    expect(compiled).not.toMatch(/require\("aws-amplify/);
    // Nor bundled in (the templates bundle carries its packages): Amplify's auth flow is not there.
    expect(compiled).not.toContain("USER_PASSWORD_AUTH");
    // React is: the module requires no package at run time, only Node's own modules.
    const required = [...compiled.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!.replace(/^node:/, ""));
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((name) => !builtinModules.includes(name))).toEqual([]);
  });

  it("with a user pool the island gets the public config, and only /account loads the account bundle", async () => {
    const f = await fixture();
    const auth = resolveAuthConfig(POOL);
    await f.run({ publicConfig: { auth } });
    const dist = f.config.outDir;
    const html = await readFile(join(dist, "account/index.html"), "utf8");
    expect(islandProps(html, "account")).toMatchObject({
      auth: {
        userPoolId: POOL.userPoolId,
        userPoolClientId: POOL.userPoolClientId,
        region: "ap-southeast-2",
        authFlowType: "USER_SRP_AUTH",
        secure: true,
      },
      texts: { intro: expect.stringContaining(SIGNED_OUT), unavailable: UNAVAILABLE },
      // The receipts' issuer, from the sample's global document (as in the footer).
      issuer: { name: "National Zakat Foundation", abn: "51 824 753 556" },
    });
    const island = html.slice(html.indexOf('data-island="account"'), html.indexOf("data-island-props"));
    expect(island).toContain("Checking whether you are signed in");
    expect(island).not.toContain(UNAVAILABLE);

    const accountEntry = pageScriptUrls(html).find((u) => /\/account-[^/]+\.js$/.test(u));
    expect(accountEntry, "account page loads its island").toBeDefined();
    // The Amplify chunk is neither a script nor a preload of the page: it loads when the island asks.
    // The island's code is a chunk the entry imports; it reaches the auth library only through import().
    const closure = pageScriptUrls(html);
    let accountCode: string | undefined;
    let amplify: string | undefined;
    /** A chunk and the chunks it imports statically (paths on the site). */
    const staticClosure = async (start: string): Promise<string[]> => {
      const files = [start];
      for (let i = 0; i < files.length; i++) {
        const text = await readFile(join(dist, files[i]!), "utf8");
        for (const [, from] of text.matchAll(/from"(\.\.?\/[^"]+\.js)"/g)) {
          const path = new URL(from!, `http://site${files[i]}`).pathname;
          if (!files.includes(path)) files.push(path);
        }
      }
      return files;
    };
    // The site-wide loader also has import()s (the islands, the editor's preview bundle): not the island's.
    // The island's code imports several chunks lazily (the signed-in view, the auth adapter): the
    // adapter's is the one that carries the auth library.
    for (const url of closure.filter((u) => !/\/page-scripts-[^/]+\.js$/.test(u))) {
      const text = await readFile(join(dist, url), "utf8");
      for (const [, lazy] of text.matchAll(/import\("(\.\.?\/[^"]+\.js)"\)/g)) {
        // Relative to the importing file (an entry in /_islands/ or a chunk in /_islands/chunks/).
        const path = new URL(lazy!, `http://site${url}`).pathname;
        const texts = await Promise.all((await staticClosure(path)).map((f) => readFile(join(dist, f), "utf8")));
        if (texts.some((t) => t.includes("USER_PASSWORD_AUTH"))) [accountCode, amplify] = [url, path];
      }
    }
    expect(amplify, "a lazily imported chunk").toBeDefined();
    // The adapter's chunk and the shared chunks it imports hold the library; none is preloaded.
    for (const file of await staticClosure(amplify!))
      if ((await readFile(join(dist, file), "utf8")).includes("USER_PASSWORD_AUTH"))
        expect(closure, `${file} is not preloaded`).not.toContain(file);
    expect(closure, "the auth library is not preloaded").not.toContain(amplify);

    for (const page of await fg("**/*.html", { cwd: dist })) {
      if (page === "account/index.html") continue;
      const other = await readFile(join(dist, page), "utf8");
      const loaded = pageScriptUrls(other);
      expect(
        loaded.filter((u) => u === accountEntry || u === amplify),
        page,
      ).toEqual([]);
      expect(other, page).not.toContain('data-island="account"');
      // The editor's preview page re-renders any page with the site's templates, so it carries the
      // island's code (never the auth library); donors' pages carry neither.
      if (page !== "preview/index.html") expect(loaded, page).not.toContain(accountCode);
    }
  });

  it("refuses to publish a token or client secret planted in the public config, naming the file but not the secret", async () => {
    const f = await fixture();
    await f.run({ publicConfig: { auth: null } });
    const before = await stat(join(f.config.outDir, "account/index.html"));
    // A made-up token (header {"alg":"HS256","typ":"JWT"}, payload {"sub":"x"}), not a real one.
    const token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLW5vdC1yZWFs";
    const secret = "abcDEF1234567890ghijKLMNOP";
    const planted = { auth: { ...resolveAuthConfig(POOL)!, clientSecret: secret, idToken: token } };
    const error = await f.run({ publicConfig: planted }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NzfError);
    const message = (error as NzfError).message;
    expect((error as NzfError).code).toBe("CONFIG_INVALID");
    expect(message).toContain("nothing was published");
    expect(message).toMatch(/account\/index\.html: client-secret/);
    expect(message).toMatch(/account\/index\.html: jwt/);
    expect(message).not.toContain(secret.slice(0, 12));
    expect(message).not.toContain(token.slice(0, 40));
    expect(JSON.stringify(error)).not.toContain(secret);
    // The last good site is untouched.
    const after = await stat(join(f.config.outDir, "account/index.html"));
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(join(f.config.outDir, "account/index.html"), "utf8")).not.toContain(secret);
  });
});
