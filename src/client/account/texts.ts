/** Texts of the account island that the page (Prismic account_page) may override. */
export interface AccountTexts {
  intro: string;
  unavailable: string;
}

export const DEFAULT_ACCOUNT_TEXTS: AccountTexts = {
  intro: "Sign in to see your gifts and receipts, manage your regular gifts, and look after your sign-in.",
  unavailable: "Sign-in is unavailable at the moment. You can still calculate and give zakat without an account.",
};

export function accountTexts(overrides: Partial<AccountTexts> | undefined): AccountTexts {
  const texts = { ...DEFAULT_ACCOUNT_TEXTS };
  for (const key of Object.keys(texts) as (keyof AccountTexts)[]) {
    const value = overrides?.[key];
    if (typeof value === "string" && value.trim()) texts[key] = value;
  }
  return texts;
}
