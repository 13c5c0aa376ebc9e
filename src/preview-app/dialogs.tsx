/**
 * The three editor preview dialogs and PreviewDialogs, which shows the right one for the machine
 * state. Texts are those of Prismic's Gatsby preview plugin, word for word: the editors know them.
 */

import { useId, useState, type FormEvent, type ReactNode } from "react";
import type { PreviewState } from "../preview/machine.js";
import { PREVIEW_GENERIC_ERROR } from "../preview/errors.js";
import { PREVIEW_DIALOG_CSS } from "../preview/dialog-styles.js";
import { Modal } from "./modal.js";

/** The preview plugin version shown in the error dialog's footer (the Gatsby plugin's the editors used). */
export const PREVIEW_PLUGIN_VERSION = "5.3.1";
/** Prismic's help article on generating an access token. */
export const ACCESS_TOKEN_HELP_URL = "https://user-guides.prismic.io/en/articles/1036153-generating-an-access-token";

export function LoadingDialog({ onCancel }: { onCancel: () => void }) {
  const id = useId();
  return (
    <Modal
      titleId={`${id}-title`}
      descriptionId={`${id}-text`}
      onDismiss={onCancel}
      className="nzf-dialog--loading"
      busy
    >
      <div className="nzf-dialog__spinner" aria-hidden="true" />
      <h2 id={`${id}-title`} className="nzf-dialog__title">
        Fetching preview
      </h2>
      <p id={`${id}-text`} className="nzf-dialog__text" role="status">
        Please wait while your updates are loading…
      </p>
      <div className="nzf-dialog__actions">
        <button type="button" className="nzf-dialog__button" onClick={onCancel}>
          Cancel Preview
        </button>
      </div>
    </Modal>
  );
}

export interface AccessTokenDialogProps {
  repositoryName: string;
  /** A token is already stored for the repository, so it was wrong: show the field as incorrect. */
  incorrect: boolean;
  onCancel: () => void;
  onSubmit: (token: string) => void;
}

export function AccessTokenDialog({ repositoryName, incorrect, onCancel, onSubmit }: AccessTokenDialogProps) {
  const id = useId();
  const [value, setValue] = useState("");
  const fieldErrorId = `${id}-incorrect`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const token = value.trim();
    // The field is `required`; browsers enforce it, this covers environments that do not.
    if (token === "") return;
    onSubmit(token);
  };
  return (
    <Modal
      titleId={`${id}-title`}
      descriptionId={`${id}-text`}
      onDismiss={onCancel}
      className="nzf-dialog--access-token"
    >
      <h2 id={`${id}-title`} className="nzf-dialog__title">
        Enter your access token
      </h2>
      <p id={`${id}-text`} className="nzf-dialog__text">
        An access token is required to view this preview.
      </p>
      <p className="nzf-dialog__repository">
        Repository: <strong>{repositoryName}</strong>
      </p>
      <form onSubmit={submit} noValidate={false}>
        <label htmlFor={`${id}-input`} className="nzf-dialog__label">
          Access token
        </label>
        <input
          id={`${id}-input`}
          className={incorrect ? "nzf-dialog__input nzf-dialog__input--incorrect" : "nzf-dialog__input"}
          type="text"
          name="access-token"
          placeholder="your-access-token"
          required
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={incorrect ? "true" : undefined}
          aria-describedby={incorrect ? fieldErrorId : undefined}
          data-autofocus=""
        />
        {incorrect && (
          <p id={fieldErrorId} className="nzf-dialog__field-error">
            Incorrect token
          </p>
        )}
        <p className="nzf-dialog__text">
          <a className="nzf-dialog__link" href={ACCESS_TOKEN_HELP_URL} target="_blank" rel="noopener noreferrer">
            Learn about generating one here.
          </a>
        </p>
        <div className="nzf-dialog__actions">
          <button type="button" className="nzf-dialog__button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="nzf-dialog__button nzf-dialog__button--primary">
            Continue
          </button>
        </div>
      </form>
    </Modal>
  );
}

export interface ErrorDialogProps {
  repositoryName: string;
  error: string | null;
  onCancel: () => void;
}

export function ErrorDialog({ repositoryName, error, onCancel }: ErrorDialogProps) {
  const id = useId();
  // The generic sentence is always shown; the specific message only when it adds something.
  const detail = error && error !== PREVIEW_GENERIC_ERROR ? error : null;
  return (
    <Modal
      titleId={`${id}-title`}
      descriptionId={detail ? `${id}-text ${id}-detail` : `${id}-text`}
      onDismiss={onCancel}
      className="nzf-dialog--error"
    >
      <h2 id={`${id}-title`} className="nzf-dialog__title">
        Error
      </h2>
      <p id={`${id}-text`} className="nzf-dialog__text">
        The preview could not be loaded.
      </p>
      {detail && (
        <p id={`${id}-detail`} className="nzf-dialog__error-message">
          {detail}
        </p>
      )}
      <div className="nzf-dialog__actions">
        <button type="button" className="nzf-dialog__button nzf-dialog__button--primary" onClick={onCancel}>
          Cancel Preview
        </button>
      </div>
      <footer className="nzf-dialog__footer">
        <span className="nzf-dialog__footer-repository">{repositoryName}</span>
        <span className="nzf-dialog__footer-version">Preview plugin version {PREVIEW_PLUGIN_VERSION}</span>
      </footer>
    </Modal>
  );
}

export interface PreviewDialogsProps {
  state: PreviewState;
  /** Whether an access token is stored for state.activeRepositoryName. */
  hasStoredToken: boolean;
  /** Cancel or dismiss on any dialog: the caller goes back to idle. */
  onCancel: () => void;
  onSubmitToken: (token: string) => void;
}

/** Renders the dialog for the state: loading, access-token prompt, error, or nothing. */
export function PreviewDialogs({ state, hasStoredToken, onCancel, onSubmitToken }: PreviewDialogsProps) {
  let dialog: ReactNode = null;
  switch (state.previewState) {
    case "bootstrapping":
    case "resolving":
      dialog = <LoadingDialog key="loading" onCancel={onCancel} />;
      break;
    case "prompt-for-access-token":
      dialog = (
        <AccessTokenDialog
          key="access-token"
          repositoryName={state.activeRepositoryName}
          incorrect={hasStoredToken}
          onCancel={onCancel}
          onSubmit={onSubmitToken}
        />
      );
      break;
    case "failed":
      dialog = (
        <ErrorDialog key="error" repositoryName={state.activeRepositoryName} error={state.error} onCancel={onCancel} />
      );
      break;
    default:
      return null;
  }
  return (
    <>
      <style>{PREVIEW_DIALOG_CSS}</style>
      {dialog}
    </>
  );
}
