/**
 * The authenticator app's key, set up without any third-party service: a QR code drawn here from
 * the otpauth:// link (the `qrcode` package's matrix, as SVG squares: no image request, no inline
 * markup to trust), and the key in groups of four so it can be read aloud and typed, wrapping only
 * between groups.
 *
 * `qrcode` is loaded only when a donor sets up an app (a dynamic import: esbuild puts it in a chunk
 * of its own), so the account page's up-front code stays within the 90 KB budget. Until it has
 * loaded the key is already there to type; if it cannot load, the page says to type the key.
 */
import { useEffect, useState } from "react";

/** "JBSWY3DPEHPK3PXP" → ["JBSW", "Y3DP", "EHPK", "3PXP"] */
export const keyGroups = (secret: string) => secret.replace(/\s+/g, "").match(/.{1,4}/g) ?? [];

/** What the page needs of a QR matrix (the `qrcode` package's `BitMatrix`). */
export interface QrModules {
  size: number;
  get(row: number, col: number): number | boolean;
}

/** One SVG path of the dark modules, with the 4-module quiet zone the standard asks for around them. */
export function qrPath(modules: QrModules): { d: string; full: number } {
  const quiet = 4;
  let d = "";
  for (let y = 0; y < modules.size; y++)
    for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  return { d, full: modules.size + quiet * 2 };
}

/** The matrix of `text` at error correction M, with `qrcode` loaded on demand. */
export async function qrMatrix(text: string): Promise<QrModules> {
  const QRCode = (await import("qrcode")).default;
  return QRCode.create(text, { errorCorrectionLevel: "M" }).modules;
}

export function QrCode({ text, label }: { text: string; label: string }) {
  const [drawn, setDrawn] = useState<{ d: string; full: number } | "failed" | null>(null);
  useEffect(() => {
    let live = true;
    setDrawn(null);
    qrMatrix(text).then(
      (modules) => live && setDrawn(qrPath(modules)),
      () => live && setDrawn("failed"), // offline or blocked: the key below still sets the app up
    );
    return () => {
      live = false;
    };
  }, [text]);
  if (drawn === "failed")
    return (
      <p className="account-hint">The QR code could not be shown here. Type the key below into your app instead.</p>
    );
  if (drawn === null)
    return (
      <p className="account-qr account-qr-wait" aria-busy="true">
        Drawing the QR code…
      </p>
    );
  const { d, full } = drawn;
  return (
    <svg
      className="account-qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${full} ${full}`}
      width="200"
      height="200"
      shapeRendering="crispEdges"
    >
      <rect width={full} height={full} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

export function GroupedKey({ secret }: { secret: string }) {
  return (
    <code className="account-secret">
      {keyGroups(secret).map((group, i) => (
        <span key={i}>
          {i > 0 ? " " : ""}
          <span className="account-secret-group">{group}</span>
        </span>
      ))}
    </code>
  );
}
