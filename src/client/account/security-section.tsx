/**
 * Looking after the account, signed in: change the password, change (and verify) the e-mail
 * address and the phone number with the code the pool sends, and the remembered devices with
 * "Forget". Each form has its own messages (a status that takes focus when it changes, and an
 * alert), so the donor hears the result where they are. Every call goes through the AuthAdapter.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { EARLIER_SITE_MESSAGES, validateCode, validateEmail, validatePassword } from "../../auth/messages.js";
import type { AccountDetails, AuthAdapter, ContactAttribute } from "../../auth/types.js";
import { todayIn } from "../../payments/schedules.js";
import { plainDeviceName } from "./plain-device-name.js";
import { Actions, Field, formValues, onlyErrors } from "./field.js";
import { longDate } from "./giving-queries.js";
import { useOnDemand } from "./use-on-demand.js";
import { useTask, type Task } from "./use-task.js";

export interface SecurityProps {
  account: AccountDetails;
  adapter: AuthAdapter;
  /** The account's details after a change (re-read from the pool). */
  onChanged: (account: AccountDetails) => void;
  /** The session ended (e.g. revoked elsewhere): back to sign-in with this message. */
  onSessionEnded: (message: string) => void;
}

export function SecuritySection(props: SecurityProps) {
  return (
    <>
      <PasswordForm {...props} />
      <ContactEditor {...props} attribute="email" />
      <ContactEditor {...props} attribute="phone_number" />
      <Devices {...props} />
    </>
  );
}

/** A form's notice and error; the notice takes focus when it appears so the result is heard. */
export function Messages({ task }: { task: Task }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (task.notice) notice.current?.focus();
  }, [task.notice]);
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (task.error) alert.current?.focus();
  }, [task.error]);
  return (
    <>
      <div role="status" className="account-notice" ref={notice} tabIndex={-1}>
        {task.busy ? "Please wait…" : task.notice}
      </div>
      <div role="alert" className="account-error" ref={alert} tabIndex={-1}>
        {task.error ? (
          <p>
            <strong>Error:</strong> {task.error}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** A form that, after a refused submit, puts the keyboard on the first field needing attention. */
export function SmallForm({
  onSubmit,
  errors,
  children,
}: {
  onSubmit: (values: Record<string, string>) => void;
  errors: Task["errors"];
  children: ReactNode;
}) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.keys(errors).length > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(formValues(event.currentTarget));
  };
  return (
    <form noValidate onSubmit={submit} ref={form}>
      {children}
    </form>
  );
}

function PasswordForm({ adapter, onSessionEnded }: SecurityProps) {
  const task = useTask(onSessionEnded);
  const [round, setRound] = useState(0);
  return (
    <section className="account-security" aria-labelledby="account-password-title">
      <h3 id="account-password-title">Password</h3>
      <Messages task={task} />
      <SmallForm
        key={round}
        errors={task.errors}
        onSubmit={({ currentPassword = "", newPassword = "" }) => {
          const found = onlyErrors({
            currentPassword: currentPassword ? null : EARLIER_SITE_MESSAGES.emptyPassword,
            newPassword: validatePassword(newPassword),
          });
          if (Object.keys(found).length > 0) return task.refuse(found);
          void task.run(
            async () => {
              await adapter.changePassword(currentPassword, newPassword);
              setRound((r) => r + 1);
              task.setNotice("Your password is changed. Use the new one the next time you sign in.");
            },
            (donor, raw) => {
              const name = (raw as { name?: string }).name;
              if (name === "NotAuthorizedException" && donor.field === "password")
                return {
                  field: "currentPassword",
                  message: "Your current password is not correct. Check it and try again.",
                };
              if (name === "InvalidPasswordException") return { field: "newPassword" };
              return undefined;
            },
          );
        }}
      >
        <Field
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          errors={task.errors}
        />
        <Field
          name="newPassword"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters. Any characters are fine; a longer phrase is safer."
          errors={task.errors}
        />
        <Actions>
          <button type="submit">Change password</button>
        </Actions>
      </SmallForm>
    </section>
  );
}

const CONTACT = {
  email: {
    title: "E-mail address",
    field: "newEmail",
    label: "New e-mail address",
    code: "emailCode",
    codeLabel: "Code from the e-mail",
    change: "Change e-mail address",
    type: "email" as const,
    autoComplete: "email",
  },
  phone_number: {
    title: "Phone number",
    field: "newPhone",
    label: "Mobile number",
    code: "phoneCode",
    codeLabel: "Code from the text message",
    change: "Change phone number",
    type: "tel" as const,
    autoComplete: "tel",
  },
};

/** "0412 345 678" or "+61 412 345 678" → "+61412345678" (the pool takes E.164); null when it is not a number. */
export function phoneE164(text: string): string | null {
  const digits = text.replace(/[\s()-]/g, "");
  if (/^04\d{8}$/.test(digits)) return `+61${digits.slice(1)}`;
  if (/^\+\d{8,15}$/.test(digits)) return digits;
  return null;
}

function ContactEditor({
  account,
  adapter,
  onChanged,
  onSessionEnded,
  attribute,
}: SecurityProps & { attribute: ContactAttribute }) {
  const c = CONTACT[attribute];
  const task = useTask(onSessionEnded);
  const [mode, setMode] = useState<"view" | "edit" | "code">("view");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const current = attribute === "email" ? account.email : account.phoneNumber;
  const verified = attribute === "email" ? account.emailVerified : account.phoneNumberVerified;
  const firstInput = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (mode !== "view") firstInput.current?.querySelector("input")?.focus();
  }, [mode]);

  const reload = async () => onChanged(await adapter.loadAccount());
  const what = attribute === "email" ? "e-mail address" : "phone number";

  return (
    <section className="account-security" aria-labelledby={`account-${attribute}-title`}>
      <h3 id={`account-${attribute}-title`}>{c.title}</h3>
      <p>{current ? `${current} (${verified ? "verified" : "not verified"})` : "Not given"}</p>
      <Messages task={task} />
      {mode === "view" ? (
        <Actions>
          <button type="button" onClick={() => setMode("edit")}>
            {current ? c.change : `Add a ${what}`}
          </button>
          {current && !verified ? (
            <button
              type="button"
              onClick={() =>
                void task.run(async () => {
                  const sent = await adapter.sendContactCode(attribute);
                  setSentTo(sent.destination ?? current);
                  setMode("code");
                })
              }
            >
              Verify {what}
            </button>
          ) : null}
        </Actions>
      ) : mode === "edit" ? (
        <SmallForm
          errors={task.errors}
          onSubmit={(values) => {
            const raw = (values[c.field] ?? "").trim();
            const value = attribute === "email" ? raw : phoneE164(raw);
            const problem =
              attribute === "email"
                ? validateEmail(raw)
                : value
                  ? null
                  : "Enter a mobile number such as 0412 345 678, or with its country code such as +64 21 123 4567.";
            if (problem) return task.refuse({ [c.field]: problem });
            void task.run(
              async () => {
                const out = await adapter.updateContact(attribute, value!);
                await reload();
                if (out.codeSent) {
                  setSentTo(out.destination ?? value!);
                  setMode("code");
                } else {
                  setMode("view");
                  task.setNotice(`Your ${what} is changed to ${value}.`);
                }
              },
              (donor) => (donor.field === "email" ? { field: c.field } : undefined),
            );
          }}
        >
          <div ref={firstInput}>
            <Field
              name={c.field}
              label={c.label}
              type={c.type}
              autoComplete={c.autoComplete}
              hint={attribute === "email" ? "You will sign in with this address from now on." : undefined}
              errors={task.errors}
            />
          </div>
          <Actions>
            <button type="submit">Save and send a code</button>
            <button type="button" onClick={() => setMode("view")}>
              Cancel
            </button>
          </Actions>
        </SmallForm>
      ) : (
        <SmallForm
          errors={task.errors}
          onSubmit={(values) => {
            const code = (values[c.code] ?? "").trim();
            const problem = validateCode(code);
            if (problem) return task.refuse({ [c.code]: problem });
            void task.run(
              async () => {
                await adapter.confirmContact(attribute, code);
                await reload();
                setMode("view");
                task.setNotice(`Your ${what} is verified.`);
              },
              (donor) => (donor.field === "code" ? { field: c.code } : undefined),
            );
          }}
        >
          <p>
            We sent a code to {sentTo}. Enter it here to verify your {what}.
          </p>
          <div ref={firstInput}>
            <Field
              name={c.code}
              label={c.codeLabel}
              inputMode="numeric"
              autoComplete="one-time-code"
              errors={task.errors}
            />
          </div>
          <Actions>
            <button type="submit">Verify</button>
            <button
              type="button"
              onClick={() =>
                void task.run(async () => {
                  const sent = await adapter.sendContactCode(attribute);
                  setSentTo(sent.destination ?? sentTo);
                  task.setNotice(`We sent a new code to ${sent.destination ?? sentTo}.`);
                })
              }
            >
              Send a new code
            </button>
            <button type="button" onClick={() => setMode("view")}>
              Later
            </button>
          </Actions>
        </SmallForm>
      )}
    </section>
  );
}

function Devices({ account, adapter, onChanged, onSessionEnded }: SecurityProps) {
  const task = useTask(onSessionEnded);
  // ua-parser-js loads on demand, when this section opens; the plain namer if it cannot.
  const namer = useOnDemand(() => import("./device-name.js"));
  const deviceName = namer === null ? null : namer === "failed" ? plainDeviceName : namer.value.deviceName;
  return (
    <section className="account-security" aria-labelledby="account-devices-title">
      <h3 id="account-devices-title">Signed-in devices</h3>
      <Messages task={task} />
      {account.devices === null ? (
        <p>
          {EARLIER_SITE_MESSAGES.deviceConfig}, so we cannot list the devices you are signed in on. To sign out on all
          of them, use Sign out of all devices below.
        </p>
      ) : account.devices.length === 0 ? (
        <p>No remembered devices.</p>
      ) : deviceName === null ? (
        <p aria-busy="true">Loading your devices…</p>
      ) : (
        <ul className="account-devices">
          {[...account.devices]
            .sort((a, b) => Number(b.current ?? false) - Number(a.current ?? false))
            .map((device) => {
              const name = deviceName(device.name);
              return (
                <li key={device.id} className="account-device">
                  <p>
                    <strong>{name}</strong>
                    {device.current ? <span className="account-this-device"> (this device)</span> : null}
                    {device.lastSeen ? (
                      <>
                        <br />
                        Last used {longDate(todayIn("Australia/Sydney", new Date(device.lastSeen)))}
                      </>
                    ) : null}
                  </p>
                  <Actions>
                    <button
                      type="button"
                      aria-label={`Forget ${name}${device.current ? " (this device)" : ""}`}
                      onClick={() =>
                        void task.run(async () => {
                          await adapter.forgetDevice(device.id);
                          onChanged(await adapter.loadAccount());
                          task.setNotice(
                            `${name} is forgotten. It will be treated as a new device the next time it signs in.`,
                          );
                        })
                      }
                    >
                      Forget
                    </button>
                  </Actions>
                </li>
              );
            })}
        </ul>
      )}
    </section>
  );
}
