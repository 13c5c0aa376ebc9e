/**
 * One step of the account flow: a section named by its heading. When a new step appears after a
 * donor's action, focus moves to its heading so keyboard and screen-reader users land on it; the
 * first render after page load leaves focus alone.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { useIslandId } from "../island-id.js";

export interface StepProps {
  title: string;
  /** Move focus to the heading when this step appears. */
  focus: boolean;
  /** A form-level error (already donor-facing text). */
  error?: string | null;
  /** A non-error notice: "We sent a code", "You are signed out". */
  notice?: string | null;
  busy?: boolean;
  children?: ReactNode;
}

export function Step({ title, focus, error, notice, busy, children }: StepProps) {
  const id = useIslandId("step");
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus, title]);
  return (
    <section className="account-step" aria-labelledby={id} aria-busy={busy ? true : undefined}>
      <h2 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <div role="status" className="account-notice">
        {busy ? "Please wait…" : (notice ?? null)}
      </div>
      <div role="alert" className="account-error">
        {error ? (
          <p>
            <strong>Error:</strong> {error}
          </p>
        ) : null}
      </div>
      {children}
    </section>
  );
}
