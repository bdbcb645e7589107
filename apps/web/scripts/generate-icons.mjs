// Writes the PWA icons (a white blood drop on the brand red) as PNG files, using only Node's
// built-in zlib, so the icons can be regenerated on any machine without image tooling.
// Run: npm run icons -w @bdms/web
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
/** The brand red (`--color-primary-700` in src/index.css). */
const RED = [0xb9, 0x1c, 0x1c];
const WHITE = [0xff, 0xff, 0xff];
const SAMPLES = 4; // 4×4 supersampling for smooth edges

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A drop: a circle plus the cone from the tip to the circle's tangent points (unit square). */
function insideDrop(x, y, scale) {
  const cx = 0.5;
  const cy = 0.5 + 0.1 * scale;
  const r = 0.22 * scale;
  const tipY = 0.5 - 0.32 * scale;
  const dx = x - cx;
  const dy = y - cy;
  if (dx * dx + dy * dy <= r * r) return true;
  const d = cy - tipY;
  const along = y - tipY; // distance along the axis from the tip
  // The cone ends where its sides touch the circle: (d² − r²) / d along the axis.
  if (along < 0 || along > (d * d - r * r) / d) return false;
  const halfAngle = Math.asin(r / d);
  return Math.abs(Math.atan2(Math.abs(x - cx), along)) <= halfAngle;
}

function insideRoundedSquare(x, y, radius) {
  const qx = Math.max(Math.abs(x - 0.5) - (0.5 - radius), 0);
  const qy = Math.max(Math.abs(y - 0.5) - (0.5 - radius), 0);
  return qx * qx + qy * qy <= radius * radius;
}

function renderIcon(size, { cornerRadius, dropScale }) {
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let background = 0;
      let drop = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / size;
          const y = (py + (sy + 0.5) / SAMPLES) / size;
          if (cornerRadius === 0 || insideRoundedSquare(x, y, cornerRadius)) {
            background++;
            if (insideDrop(x, y, dropScale)) drop++;
          }
        }
      }
      const total = SAMPLES * SAMPLES;
      const i = (py * size + px) * 4;
      const dropShare = background ? drop / background : 0;
      for (let c = 0; c < 3; c++) {
        rgba[i + c] = Math.round(RED[c] * (1 - dropShare) + WHITE[c] * dropShare);
      }
      rgba[i + 3] = Math.round((background / total) * 255);
    }
  }
  return encodePng(size, rgba);
}

const ICONS = [
  // "any": a rounded tile, the drop filling most of it.
  { file: 'icon-192.png', size: 192, cornerRadius: 0.2, dropScale: 1 },
  { file: 'icon-512.png', size: 512, cornerRadius: 0.2, dropScale: 1 },
  // "maskable": full bleed, the drop inside the 80 % safe zone.
  { file: 'icon-maskable-192.png', size: 192, cornerRadius: 0, dropScale: 0.75 },
  { file: 'icon-maskable-512.png', size: 512, cornerRadius: 0, dropScale: 0.75 },
  { file: 'apple-touch-icon.png', size: 180, cornerRadius: 0, dropScale: 0.85 },
];

mkdirSync(OUT_DIR, { recursive: true });
for (const icon of ICONS) {
  writeFileSync(join(OUT_DIR, icon.file), renderIcon(icon.size, icon));
  console.log(`wrote public/icons/${icon.file}`);
}
