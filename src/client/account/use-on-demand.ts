/**
 * Code the account page loads only when it is needed (a dynamic import, which esbuild's splitting
 * turns into a chunk of its own), so the page's up-front JavaScript stays within the 90 KB budget:
 * the signed-in view (loaded while the auth library loads, which it needs first anyway), two-step
 * sign-in, the user-agent parser. Started once, on mount.
 */
import { useEffect, useState } from "react";

/** The loaded value; null while loading; "failed" when the chunk could not be fetched (offline, blocked). */
export type OnDemand<T> = { value: T } | "failed" | null;

export function useOnDemand<T>(load: () => Promise<T>): OnDemand<T> {
  const [state, setState] = useState<OnDemand<T>>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per mount, whatever the caller's closure
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setState({ value }),
      () => live && setState("failed"),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
