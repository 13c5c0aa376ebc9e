/**
 * The authenticator app's key, set up without any third-party service: a QR code drawn here from
 * the otpauth:// link (the `qrcode` package's matrix, as SVG squares: no image request, no inline
 * markup to trust), and the key in groups of four so it can be read aloud and typed, wrapping only
 * between groups.
 */
import QRCode from "qrcode";

/** "JBSWY3DPEHPK3PXP" → ["JBSW", "Y3DP", "EHPK", "3PXP"] */
export const keyGroups = (secret: string) => secret.replace(/\s+/g, "").match(/.{1,4}/g) ?? [];

export function QrCode({ text, label }: { text: string; label: string }) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = modules.size;
  const quiet = 4;
  let d = "";
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) if (modules.get(y, x)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  const full = size + quiet * 2;
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
