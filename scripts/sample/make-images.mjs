// Generates the sample snapshot's images: original abstract compositions (gradients, arcs; no words
// on heroes and features, whose text is HTML over the picture in the page's language; only the
// social card names the foundation) drawn as SVG and rendered with sharp. Deterministic: shapes come from a PRNG seeded by
// the file name, so running it again gives the same pictures. Output: content-cache/sample/images/.
//
//   node scripts/sample/make-images.mjs
//
// The snapshot generator (generate.ts) reads the real dimensions of these files, so changing a
// size here and regenerating both keeps the snapshot truthful.
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const here = dirname(fileURLToPath(import.meta.url));
export const IMAGE_DIR = join(here, "..", "..", "content-cache", "sample", "images");

// NZF palette: purple (the manifest's #663399), teal, sand, and a warm gold.
const PALETTES = {
  purple: ["#663399", "#3b1a66", "#f2c14e"],
  teal: ["#0f766e", "#134e4a", "#fde68a"],
  dusk: ["#7c3aed", "#1e3a8a", "#fbcfe8"],
  sand: ["#b45309", "#78350f", "#fef3c7"],
  night: ["#1e293b", "#0f172a", "#facc15"],
  olive: ["#4d7c0f", "#1a2e05", "#ecfccb"],
  rose: ["#be123c", "#4c0519", "#ffe4e6"],
};

/** Scenes: 1600×1000 heroes and features, the 1200×630 social card. */
const SCENES = [
  ["hero-home.jpg", 1600, 1000, "purple"],
  ["hero-about.jpg", 1600, 1000, "teal"],
  ["hero-apply.jpg", 1600, 1000, "sand"],
  ["hero-cases.jpg", 1600, 1000, "dusk"],
  ["hero-learn.jpg", 1600, 1000, "olive"],
  ["hero-programs.jpg", 1600, 1000, "teal"],
  ["hero-zakat.jpg", 1600, 1000, "purple"],
  ["hero-ramadan.jpg", 1600, 1000, "night"],
  ["hero-qurban.jpg", 1600, 1000, "sand"],
  ["hero-sadaqah.jpg", 1600, 1000, "rose"],
  ["hero-purify.jpg", 1600, 1000, "olive"],
  ["feature-emergency.jpg", 1600, 1000, "rose"],
  ["feature-education.jpg", 1600, 1000, "dusk"],
  ["feature-housing.jpg", 1600, 1000, "olive"],
  ["feature-family.jpg", 1600, 1000, "teal"],
  ["social-default.jpg", 1200, 630, "purple", "National Zakat Foundation"],
];

/** Member portraits: initials on a soft field (no faces: the sample invents these people). */
const MEMBERS = [
  ["member-ar.jpg", "AR", "purple"],
  ["member-yh.jpg", "YH", "teal"],
  ["member-fk.jpg", "FK", "dusk"],
  ["member-ms.jpg", "MS", "sand"],
  ["member-ia.jpg", "IA", "olive"],
  ["member-nb.jpg", "NB", "rose"],
  ["member-hq.jpg", "HQ", "night"],
  ["member-zo.jpg", "ZO", "teal"],
];

/** Logos: transparent PNGs, 560×200. */
const LOGOS = [
  ["logo-nzf.png", "NZF", "National Zakat Foundation", "purple"],
  ["partner-westside-food-collective.png", "WFC", "Westside Food Collective", "olive"],
  ["partner-safe-harbour-housing.png", "SHH", "Safe Harbour Housing", "teal"],
  ["partner-bright-path-tutoring.png", "BPT", "Bright Path Tutoring", "dusk"],
  ["partner-crescent-legal-clinic.png", "CLC", "Crescent Legal Clinic", "sand"],
];

function prng(seedText) {
  let seed = 2166136261;
  for (const ch of seedText) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619) >>> 0;
  return () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
}

const escapeXml = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function sceneSvg(name, w, h, palette, caption) {
  const [a, b, accent] = PALETTES[palette];
  const rnd = prng(name);
  const shapes = [];
  for (let i = 0; i < 7; i++) {
    const cx = Math.round(rnd() * w),
      cy = Math.round(rnd() * h),
      r = Math.round((0.1 + rnd() * 0.35) * h);
    shapes.push(
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${i % 2 ? accent : "#ffffff"}" fill-opacity="${(0.06 + rnd() * 0.14).toFixed(2)}"/>`,
    );
  }
  // A few arches: a nod to mosque and doorway forms without depicting anything real.
  for (let i = 0; i < 3; i++) {
    const x = Math.round((0.15 + i * 0.28 + rnd() * 0.05) * w),
      top = Math.round((0.35 + rnd() * 0.2) * h),
      half = Math.round(w * 0.07);
    shapes.push(
      `<path d="M${x - half} ${h} V${top + half} A${half} ${half} 0 0 1 ${x + half} ${top + half} V${h} Z" fill="${accent}" fill-opacity="0.18"/>`,
    );
  }
  const size = Math.round(h * 0.085);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${shapes.join("")}
${caption ? `<text x="${Math.round(w * 0.06)}" y="${Math.round(h * 0.88)}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="${size}" fill="#ffffff">${escapeXml(caption)}</text>` : ""}
</svg>`;
}

function memberSvg(name, initials, palette) {
  const [a, b, accent] = PALETTES[palette];
  const rnd = prng(name);
  const ring = Math.round(260 + rnd() * 60);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800">
<defs><radialGradient id="g" cx="0.3" cy="0.3" r="0.9"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></radialGradient></defs>
<rect width="800" height="800" fill="url(#g)"/>
<circle cx="400" cy="400" r="${ring}" fill="none" stroke="${accent}" stroke-opacity="0.5" stroke-width="18"/>
<text x="400" y="470" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="200" fill="#ffffff">${initials}</text>
</svg>`;
}

function logoSvg(mark, title, palette) {
  const [a, , accent] = PALETTES[palette];
  // Cropped close around the mark and the name (560×200): the header shows the logo 48 px high,
  // and every pixel of whitespace in the file would make the name smaller there.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="560" height="200" viewBox="20 50 560 200">
<circle cx="120" cy="150" r="95" fill="${a}"/><circle cx="196" cy="78" r="24" fill="${accent}"/>
<text x="120" y="175" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="${mark.length > 2 ? 56 : 72}" fill="#ffffff">${mark}</text>
${title
  .split(" ")
  .reduce((lines, word) => {
    const last = lines[lines.length - 1];
    if (last && (last + " " + word).length <= 14) lines[lines.length - 1] = last + " " + word;
    else lines.push(word);
    return lines;
  }, [])
  .map(
    (line, i, all) =>
      `<text x="240" y="${150 - (all.length - 1) * 22 + i * 48}" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="40" fill="${a}">${escapeXml(line)}</text>`,
  )
  .join("")}
</svg>`;
}

async function render(svg, file) {
  const out = join(IMAGE_DIR, file);
  const image = sharp(Buffer.from(svg));
  if (file.endsWith(".png")) await image.png({ compressionLevel: 9, palette: true }).toFile(out);
  else await image.jpeg({ quality: 72, mozjpeg: true }).toFile(out);
  return out;
}

await mkdir(IMAGE_DIR, { recursive: true });
for (const [file, w, h, palette, caption] of SCENES) await render(sceneSvg(file, w, h, palette, caption), file);
for (const [file, initials, palette] of MEMBERS) await render(memberSvg(file, initials, palette), file);
for (const [file, mark, title, palette] of LOGOS) await render(logoSvg(mark, title, palette), file);
console.log(`Wrote ${SCENES.length + MEMBERS.length + LOGOS.length} images to ${IMAGE_DIR}`);
