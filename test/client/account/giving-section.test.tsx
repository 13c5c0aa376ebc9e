/**
 * The signed-in page without an account API (NZF_ACCOUNT_API_URL not set at build time): it says
 * plainly what it cannot show and whom to ask, and asks nothing of the network.
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GivingSection, NO_ACCOUNT_API } from "../../../src/client/account/giving-section.js";

describe("GivingSection without an account API", () => {
  it("is one status line saying what cannot be shown and whom to ask", () => {
    const html = renderToString(<GivingSection api={null} donorEmail="amina@example.org" />);
    expect(html).toContain('role="status"');
    expect(html).toContain("cannot be shown on this site yet");
    expect(html).toContain("contact our donor care team");
    expect(NO_ACCOUNT_API).toMatch(/receipt.*regular gift/);
    expect(html).not.toContain("Loading");
  });
});
