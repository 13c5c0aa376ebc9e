/**
 * The hosted sign-in offer under the sign-in form (only when the build has a hosted sign-in
 * domain): one real button that leaves for the pool's sign-in page. The donor comes back to the
 * page they were sent here from (`?return=`) or to this page's section.
 */
export function HostedSignInChoice({ onChoose }: { onChoose: () => void }) {
  return (
    <div className="account-hosted">
      <p>Or use the National Zakat Foundation sign-in page, then come straight back here.</p>
      <button type="button" onClick={onChoose}>
        Sign in on the secure sign-in page
      </button>
    </div>
  );
}
