/**
 * The hosted sign-in offer under the sign-in form (only when the build has a hosted sign-in
 * domain): one real button, styled as the form's own, that leaves for the pool's sign-in page.
 * The donor comes back to the page they were sent here from (`?return=`) or to this page's section.
 */
import { Actions } from "./field.js";

export function HostedSignInChoice({ onChoose }: { onChoose: () => void }) {
  return (
    <div className="account-hosted">
      <p>Or use the National Zakat Foundation sign-in page, then come straight back here.</p>
      <Actions>
        <button type="button" onClick={onChoose}>
          Sign in on the secure sign-in page
        </button>
      </Actions>
    </div>
  );
}
