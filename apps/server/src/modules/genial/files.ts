import type { genialInvoices } from '../../db/genial-tables.js';
import type { InvoiceOrder } from './invoices.js';

type InvoiceRow = typeof genialInvoices.$inferSelect;

const ascii = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '\\$&');
const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A one-page PDF of a sandbox invoice (the real ones are Genial's): title, customer, lines, total. */
export function invoicePdf(order: InvoiceOrder, row: InvoiceRow): Buffer {
  const title = `${row.documentType === 'factura' ? 'FACTURA' : 'BOLETA'} ELECTRONICA ${row.series}-${row.number} (SANDBOX)`;
  const lines = [
    title,
    `Orden ${order.number}`,
    `Cliente: ${order.customerName}${row.customerTaxId ? ` - ${row.customerTaxId}` : ''}`,
    ...order.lines.map((l) => `${l.quantity} x ${l.name} (${l.sku})  ${order.currency} ${(l.quantity * l.price).toFixed(2)}`),
    `Total ${order.currency} ${order.lines.reduce((s, l) => s + l.quantity * l.price, 0).toFixed(2)}`,
  ];
  const text = lines.map((l, i) => `BT /F1 ${i === 0 ? 14 : 11} Tf 50 ${780 - i * 22} Td (${ascii(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The XML of a sandbox invoice (UBL-like, not signed). */
export function invoiceXml(order: InvoiceOrder, row: InvoiceRow): string {
  const items = order.lines
    .map((l) => `  <InvoiceLine><ID>${escapeXml(l.sku)}</ID><Description>${escapeXml(l.name)}</Description><Quantity>${l.quantity}</Quantity><Price>${l.price}</Price></InvoiceLine>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice sandbox="true">\n  <ID>${escapeXml(`${row.series}-${row.number}`)}</ID>\n  <DocumentType>${escapeXml(row.documentType ?? '')}</DocumentType>\n  <Order>${escapeXml(order.number)}</Order>\n  <Customer>${escapeXml(order.customerName)}</Customer>\n  <Currency>${escapeXml(order.currency)}</Currency>\n${items}\n</Invoice>\n`;
}
