/**
 * The accessible modal behind the three preview dialogs. Native `<dialog>` + `showModal()` puts it
 * in the top layer and makes the page inert in real browsers; the same code also traps focus,
 * handles Escape and restores focus itself, because some environments (happy-dom, older
 * browsers) give a `showModal` that does none of that.
 *
 * - focus moves to the element marked `data-autofocus`, else the first focusable element;
 * - Tab and Shift+Tab cycle inside the dialog; focus that escapes (a click outside) is pulled back;
 * - Escape, or the browser's own `cancel` event, calls `onDismiss` (the caller closes the dialog by
 *   no longer rendering it: the machine is the single source of truth);
 * - on close, focus returns to the element that had it before.
 */

import { useLayoutEffect, useRef, type ReactNode } from "react";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

export interface ModalProps {
  titleId: string;
  descriptionId: string;
  onDismiss: () => void;
  className?: string;
  busy?: boolean;
  children: ReactNode;
}

export function Modal({ titleId, descriptionId, onDismiss, className, busy, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;

  // A layout effect so focus has moved by the time the commit ends (no flash of focus on the page).
  useLayoutEffect(() => {
    const dialog = ref.current!;
    const doc = dialog.ownerDocument;
    const active = doc.activeElement as HTMLElement | null;
    const previous = active && active !== doc.body && typeof active.focus === "function" ? active : null;

    if (!dialog.open) {
      try {
        if (typeof dialog.showModal === "function") dialog.showModal();
        else dialog.setAttribute("open", "");
      } catch {
        // showModal throws when the element is not connected or already open non-modally.
        dialog.setAttribute("open", "");
      }
    }

    const initial = (): HTMLElement =>
      dialog.querySelector<HTMLElement>("[data-autofocus]") ?? focusableIn(dialog)[0] ?? dialog;
    initial().focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" || event.key === "Esc") {
        // Prevent the browser's own close request too, so onDismiss runs once.
        event.preventDefault();
        dismiss.current();
        return;
      }
      if (event.key !== "Tab") return;
      const items = focusableIn(dialog);
      if (items.length === 0) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = doc.activeElement;
      if (!dialog.contains(active)) {
        event.preventDefault();
        first.focus();
      } else if (event.shiftKey && active === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    };
    const onCancel = (event: Event) => {
      event.preventDefault();
      dismiss.current();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Node && !dialog.contains(event.target)) initial().focus();
    };

    doc.addEventListener("keydown", onKeyDown, true);
    doc.addEventListener("focusin", onFocusIn);
    dialog.addEventListener("cancel", onCancel);
    return () => {
      doc.removeEventListener("keydown", onKeyDown, true);
      doc.removeEventListener("focusin", onFocusIn);
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open && typeof dialog.close === "function") dialog.close();
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={className ? `nzf-dialog ${className}` : "nzf-dialog"}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      aria-busy={busy ? "true" : undefined}
      tabIndex={-1}
    >
      <div className="nzf-dialog__panel">{children}</div>
    </dialog>
  );
}
