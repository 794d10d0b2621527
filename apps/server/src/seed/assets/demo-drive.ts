import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { DriveKind } from '@mostrador/contract';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { driveFiles } from '../../db/drive-tables.js';
import type { ProductShape } from '../../modules/orders/product-images.js';
import { demoProducts } from './demo-catalog.js';

/**
 * The demo's Drive (decision 0056): a packshot of every catalogue product in «Productos»,
 * catalogues in «Catálogos» and price lists in «Precios», all drawn by the product itself (PNG
 * and PDF written in code, no internet). WhatsApp sends JPEG and PNG, not the SVG the shop
 * draws, so the pictures are rasterised here. The bytes are the same on every run: the seed
 * writes the rows, and `writeDemoDriveBytes` puts the bytes in the storage when they are missing
 * (each server's DATA_DIR, a test's temporary one).
 */

// ---- PNG -----------------------------------------------------------------------------------------
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** An RGB picture as PNG. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    Buffer.from(rgb.buffer, rgb.byteOffset + y * width * 3, width * 3).copy(raw, y * (width * 3 + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

type Rgb = [number, number, number];
const rgbOf = (hex: string): Rgb => [0, 8, 16].map((s) => (Number.parseInt(hex, 16) >> (16 - s)) & 255) as Rgb;
const mix = (c: Rgb, amount: number): Rgb => c.map((v) => Math.max(0, Math.min(255, Math.round(v + amount * 255)))) as Rgb;

/** A packshot like the shop's SVG: the product's shape in its colour on a soft background. */
function packshot(shape: ProductShape, hex: string, size = 320): Buffer {
  const px = new Uint8Array(size * size * 3);
  const color = rgbOf(hex);
  const [dark, light, bg] = [mix(color, -0.18), mix(color, 0.25), mix(color, 0.62)];
  const put = (c: Rgb, x: number, y: number) => {
    const i = (y * size + x) * 3;
    px[i] = c[0];
    px[i + 1] = c[1];
    px[i + 2] = c[2];
  };
  // the soft background: lighter towards the edges
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const lift = Math.min(0.25, (Math.sqrt((x - size / 2) ** 2 + (y - size * 0.4) ** 2) / size) * 0.3) * 255;
      const i = (y * size + x) * 3;
      px[i] = Math.min(255, bg[0] + lift);
      px[i + 1] = Math.min(255, bg[1] + lift);
      px[i + 2] = Math.min(255, bg[2] + lift);
    }
  }
  const s = size / 400; // drawn on the shop's 400 × 400 grid
  const rect = (x: number, y: number, w: number, h: number, c: Rgb, r = 0) => {
    for (let yy = Math.round(y * s); yy < Math.round((y + h) * s); yy++) {
      for (let xx = Math.round(x * s); xx < Math.round((x + w) * s); xx++) {
        const cx = Math.min(Math.max(xx / s, x + r), x + w - r);
        const cy = Math.min(Math.max(yy / s, y + r), y + h - r);
        if (r && (xx / s - cx) ** 2 + (yy / s - cy) ** 2 > r * r) continue;
        if (xx >= 0 && yy >= 0 && xx < size && yy < size) put(c, xx, yy);
      }
    }
  };
  const ellipse = (cx: number, cy: number, rx: number, ry: number, c: Rgb, from = -Math.PI, to = Math.PI) => {
    for (let yy = Math.round((cy - ry) * s); yy <= Math.round((cy + ry) * s); yy++) {
      for (let xx = Math.round((cx - rx) * s); xx <= Math.round((cx + rx) * s); xx++) {
        const dx = (xx / s - cx) / rx;
        const dy = (yy / s - cy) / ry;
        if (dx * dx + dy * dy > 1 || xx < 0 || yy < 0 || xx >= size || yy >= size) continue;
        const angle = Math.atan2(dy, dx);
        if (angle >= from && angle <= to) put(c, xx, yy);
      }
    }
  };
  const white: Rgb = [255, 255, 255];
  ellipse(200, 340, 120, 14, mix(bg, -0.12));
  switch (shape) {
    case 'botella':
      rect(140, 110, 120, 214, color, 24);
      rect(176, 56, 48, 70, color, 8);
      rect(176, 48, 48, 20, dark, 6);
      rect(150, 190, 100, 70, white);
      rect(165, 210, 70, 10, color, 5);
      break;
    case 'lata':
      rect(140, 90, 120, 220, color, 18);
      ellipse(200, 96, 58, 12, light);
      rect(140, 170, 120, 60, white);
      rect(160, 190, 80, 10, color, 5);
      break;
    case 'caja':
      rect(120, 110, 160, 200, color, 6);
      rect(120, 110, 160, 24, light);
      rect(196, 134, 8, 176, dark);
      break;
    case 'bolsa':
      ellipse(200, 140, 38, 40, dark, -Math.PI, 0);
      ellipse(200, 140, 28, 30, bg, -Math.PI, 0);
      rect(125, 140, 150, 180, color, 8);
      rect(150, 200, 100, 60, white, 8);
      rect(168, 222, 64, 10, color, 5);
      break;
    case 'polo':
      rect(140, 90, 120, 230, color, 10);
      rect(84, 96, 72, 70, color, 14);
      rect(244, 96, 72, 70, color, 14);
      ellipse(200, 92, 34, 20, dark, 0, Math.PI);
      break;
    case 'zapatilla':
      rect(90, 190, 230, 80, color, 30);
      rect(110, 160, 90, 60, color, 20);
      rect(80, 266, 250, 24, light, 10);
      for (const x of [150, 170, 190]) rect(x, 176, 14, 6, white, 3);
      break;
    case 'gorra':
      ellipse(200, 232, 92, 120, color, -Math.PI, 0);
      rect(100, 228, 260, 22, dark, 10);
      ellipse(200, 114, 10, 10, light);
      break;
    case 'taza':
      ellipse(250, 210, 46, 44, dark);
      ellipse(250, 210, 28, 26, bg);
      rect(120, 130, 130, 160, color, 16);
      ellipse(185, 132, 65, 12, light);
      break;
    case 'frasco':
      rect(135, 120, 130, 190, color, 24);
      rect(145, 80, 110, 44, dark, 8);
      rect(150, 180, 100, 70, white, 6);
      rect(168, 205, 64, 10, color, 5);
      break;
    default:
      ellipse(200, 112, 42, 40, dark, -Math.PI, 0);
      ellipse(200, 112, 30, 28, bg, -Math.PI, 0);
      rect(120, 110, 160, 200, color, 40);
      rect(150, 200, 100, 70, dark, 12);
      rect(170, 220, 60, 8, light, 4);
  }
  return encodePng(size, size, px);
}

// ---- PDF -----------------------------------------------------------------------------------------
/** A one-page PDF (Helvetica, WinAnsi: Spanish accents) with a title and lines of text. */
export function simplePdf(title: string, lines: string[]): Buffer {
  // WinAnsi is Latin-1 for Spanish; a dash and anything beyond it are written as plain characters
  const esc = (t: string) =>
    t
      .replace(/[\u2013\u2014]/g, '-')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole Latin-1 range is kept
      .replace(/[^\u0000-\u00ff]/g, '?')
      .replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [
    'BT',
    '/F2 18 Tf',
    '50 790 Td',
    `(${esc(title)}) Tj`,
    '/F1 11 Tf',
    '0 -30 Td',
    '15 TL',
    ...lines.slice(0, 48).map((l) => `(${esc(l)}) '`),
    'ET',
  ].join('\n');
  const content = Buffer.from(text, 'latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0].length;
  const add = (b: Buffer) => {
    parts.push(b);
    at += b.length;
  };
  objects.forEach((o, i) => {
    offsets.push(at);
    add(Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1'));
  });
  offsets.push(at);
  add(Buffer.concat([Buffer.from(`6 0 obj\n<< /Length ${content.length} >>\nstream\n`, 'latin1'), content, Buffer.from('\nendstream\nendobj\n', 'latin1')]));
  const xref = at;
  add(Buffer.from(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`, 'latin1'));
  add(Buffer.from(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

// ---- the demo's files ------------------------------------------------------------------------------
export interface DemoDriveFile {
  folder: string;
  name: string;
  mimeType: string;
  kind: DriveKind;
  bytes: Buffer;
  sha256: string;
}

const money = (n: number) => `S/ ${n.toFixed(2)}`;
let memo: DemoDriveFile[] | undefined;

/** The demo's Drive files, the same bytes on every call. */
export function demoDriveFiles(): DemoDriveFile[] {
  if (memo) return memo;
  const file = (folder: string, name: string, mimeType: string, kind: DriveKind, bytes: Buffer): DemoDriveFile => ({
    folder,
    name,
    mimeType,
    kind,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
  const products = demoProducts.map((p) => file('Productos', `${p.name}.png`, 'image/png', 'image', packshot(p.shape, p.hex)));
  const byCategory = new Map<string, typeof demoProducts>();
  for (const p of demoProducts) byCategory.set(p.category, [...(byCategory.get(p.category) ?? []), p]);
  const catalogue = simplePdf(
    'Catálogo Mostrador 2026',
    [...byCategory].flatMap(([category, list]) => ['', category.toUpperCase(), ...list.map((p) => `${p.name} — ${p.description}`)]),
  );
  const clothes = simplePdf('Catálogo Andina Textil', ['Ropa y accesorios de algodón peruano', '', ...demoProducts.filter((p) => p.category === 'Ropa').map((p) => `${p.name}: ${p.description}${p.sizes ? ` (tallas ${p.sizes.join(', ')})` : ''}`)]);
  const prices = simplePdf('Lista de precios — noviembre 2026', ['Precios en soles, IGV incluido', '', ...demoProducts.map((p) => `${p.sku.padEnd(12, ' ')} ${p.name} .......... ${money(p.price)}`)]);
  const wholesale = Buffer.from(
    `\uFEFFsku;producto;precio;precio_mayorista_12u\r\n${demoProducts.map((p) => `${p.sku};${p.name};${p.price.toFixed(2)};${(p.price * 0.88).toFixed(2)}`).join('\r\n')}\r\n`,
    'utf8',
  );
  memo = [
    ...products,
    file('Catálogos', 'Catálogo Mostrador 2026.pdf', 'application/pdf', 'document', catalogue),
    file('Catálogos', 'Catálogo Andina Textil.pdf', 'application/pdf', 'document', clothes),
    file('Precios', 'Lista de precios noviembre 2026.pdf', 'application/pdf', 'document', prices),
    file('Precios', 'Precios mayoristas.csv', 'text/csv', 'document', wholesale),
  ];
  return memo;
}

/** The demo's Drive rows for a company, uploaded by `userId`, a few minutes apart (newest: the price list). */
export async function seedDemoDrive(db: Db, companyId: string, userId: string | null, only?: (f: DemoDriveFile) => boolean, now = new Date()): Promise<void> {
  const files = demoDriveFiles().filter(only ?? (() => true));
  await db.insert(driveFiles).values(
    files.map((f, i) => ({
      companyId,
      id: randomBytes(18).toString('base64url'),
      folder: f.folder,
      name: f.name,
      mimeType: f.mimeType,
      kind: f.kind,
      size: f.bytes.length,
      sha256: f.sha256,
      uploadedBy: userId,
      createdAt: new Date(now.getTime() - (files.length - i) * 7 * 60_000),
    })),
  );
}

/** Puts the demo files' bytes in the storage where a row names them and they are missing. */
export async function writeDemoDriveBytes(
  db: Db,
  storage: { exists(companyId: string, sha256: string): Promise<boolean>; write(companyId: string, sha256: string, bytes: Buffer): Promise<void> },
): Promise<void> {
  const bySha = new Map(demoDriveFiles().map((f) => [f.sha256, f]));
  const rows = await db
    .select({ companyId: driveFiles.companyId, sha256: driveFiles.sha256 })
    .from(driveFiles)
    .where(inArray(driveFiles.sha256, [...bySha.keys()]));
  for (const row of rows) {
    if (await storage.exists(row.companyId, row.sha256)) continue;
    const file = bySha.get(row.sha256);
    if (file) await storage.write(row.companyId, row.sha256, file.bytes);
  }
}
