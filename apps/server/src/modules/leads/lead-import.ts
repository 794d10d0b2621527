import {
  type CountryCode,
  LEAD_IMPORT_MAX_ROWS,
  type LeadImportResult,
  isPhoneNumber,
  type LeadPlatform,
  normalisePhone,
  resources,
  zEmail,
} from '@mostrador/contract';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Tenant } from '../../plugins/auth.js';
import { decodeCsv, foldHeader, foldName, parseCsv } from './csv.js';
import { cleanName, type Detail, mergeDetails } from './merge.js';

/** The columns an import understands, by their folded header (case, accents, spaces and dashes ignored). */
const columnNames = {
  name: ['nombre', 'nombres', 'name', 'nombrecompleto', 'fullname', 'cliente', 'contacto'],
  telefono: ['telefono', 'tel', 'phone', 'phonenumber', 'celular', 'cel', 'movil', 'mobile', 'numero', 'numerodetelefono', 'whatsapp'],
  email: ['email', 'correo', 'mail', 'correoelectronico', 'emailaddress'],
  platform: ['plataforma', 'platform', 'canal', 'channel', 'origen'],
  labels: ['etiquetas', 'etiqueta', 'labels', 'label', 'tags', 'tag'],
} as const;
type Column = keyof typeof columnNames;

/** What a person writes in the plataforma column → the lead's platform. */
const platformNames: Record<string, LeadPlatform> = {
  facebook: 'facebook',
  messenger: 'facebook',
  fb: 'facebook',
  whatsapp: 'whatsapp',
  wa: 'whatsapp',
  wsp: 'whatsapp',
  instagram: 'instagram',
  ig: 'instagram',
  web: 'web',
  sitioweb: 'web',
  formulario: 'web',
  tienda: 'web',
};

/** The longest cell the import reads (a name is kept to 120): a longer one is a broken row, not a lead. */
export const IMPORT_MAX_CELL = 1000;

/** User text quoted in a reason, kept short. */
const quoted = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** Rejection reasons and warnings (Spanish, shown per row on the screen). */
export const importReasons = {
  noContact: 'Falta teléfono o email',
  phone: 'Teléfono inválido',
  email: 'Email inválido',
  tooLong: (column: string) => `La columna "${column}" tiene más de ${IMPORT_MAX_CELL.toLocaleString('es')} caracteres`,
  platform: (name: string) => `Plataforma desconocida: ${quoted(name)}`,
  /** A warning: the row is imported without that label. */
  label: (name: string) => `Etiqueta desconocida, no se asignó: ${quoted(name)}`,
} as const;

/** Which field of a record holds each column (first matching header wins; other columns are ignored). */
function columnsOf(header: string[]): Partial<Record<Column, number>> {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((title, index) => {
    const folded = foldHeader(title);
    for (const [column, names] of Object.entries(columnNames) as Array<[Column, readonly string[]]>) {
      if (found[column] === undefined && names.includes(folded)) found[column] = index;
    }
  });
  return found;
}

interface ParsedRow {
  row: number;
  /** Label names the company does not have: the row is imported without them (decision 0022). */
  unknownLabels: string[];
  name?: string;
  telefono?: string;
  email?: string;
  platform?: LeadPlatform;
  labels: string[];
}

type Parsed = { ok: true; value: ParsedRow } | { ok: false; row: number; reason: string };

const emailSchema = zEmail();

/** Labels in one cell: separated by `,` `;` or `|`. */
const labelNamesOf = (cell: string) =>
  cell
    .split(/[,;|]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Reads and checks a CSV upload before anything is written: its rows, or a 400 for the file as a
 * whole (not text, empty, no phone or e-mail column, a quote never closed, more than
 * LEAD_IMPORT_MAX_ROWS rows). Row numbers are the spreadsheet's: the header is row 1, blank
 * lines count, a quoted cell with line breaks is one row.
 */
export function readLeadCsv(bytes: Uint8Array, country: CountryCode, labelIds: Map<string, string>): Parsed[] {
  const text = decodeCsv(bytes);
  if (text.trim() === '') throw new AppError('VALIDATION', 'El archivo está vacío');
  const [first, ...records] = parseCsv(text);
  const header = first?.fields ?? [];
  const columns = columnsOf(header);
  if (columns.telefono === undefined && columns.email === undefined) {
    throw new AppError(
      'VALIDATION',
      'La primera fila debe nombrar las columnas, con al menos "telefono" o "email" (también: nombre, plataforma, etiquetas)',
    );
  }
  const cell = (record: string[], column: Column) => {
    const index = columns[column];
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  const titleOf = (column: Column) => header[columns[column] ?? 0]?.trim() || column;
  const readColumns = (Object.keys(columns) as Column[]).filter((column) => columns[column] !== undefined);

  const out: Parsed[] = [];
  let count = 0;
  for (const { row, fields: record } of records) {
    if (record.every((f) => f.trim() === '')) continue;
    count += 1;
    if (count > LEAD_IMPORT_MAX_ROWS) {
      throw new AppError(
        'VALIDATION',
        `El archivo tiene más de ${String(LEAD_IMPORT_MAX_ROWS).replace(/\B(?=(\d{3})+(?!\d))/g, '.')} filas: divídelo en archivos más pequeños`,
      );
    }
    const tooLong = readColumns.find((column) => cell(record, column).length > IMPORT_MAX_CELL);
    if (tooLong) {
      out.push({ ok: false, row, reason: importReasons.tooLong(titleOf(tooLong)) });
      continue;
    }
    const phoneText = cell(record, 'telefono');
    const emailText = cell(record, 'email');
    if (!phoneText && !emailText) {
      out.push({ ok: false, row, reason: importReasons.noContact });
      continue;
    }
    const telefono = phoneText ? normalisePhone(phoneText, country) : undefined;
    // the digits must be a phone number some country has (libphonenumber-js), as zPhone asks of a lead
    if (telefono === null || (telefono !== undefined && !isPhoneNumber(telefono))) {
      out.push({ ok: false, row, reason: importReasons.phone });
      continue;
    }
    let email: string | undefined;
    if (emailText) {
      const parsed = emailSchema.safeParse(emailText);
      if (!parsed.success) {
        out.push({ ok: false, row, reason: importReasons.email });
        continue;
      }
      email = parsed.data;
    }
    const platformText = cell(record, 'platform');
    const platform = platformText ? platformNames[foldHeader(platformText)] : undefined;
    if (platformText && !platform) {
      out.push({ ok: false, row, reason: importReasons.platform(platformText) });
      continue;
    }
    const labels: string[] = [];
    const unknownLabels: string[] = [];
    for (const label of labelNamesOf(cell(record, 'labels'))) {
      const id = labelIds.get(foldName(label));
      if (!id) unknownLabels.push(label);
      else if (!labels.includes(id)) labels.push(id);
    }
    const name = cleanName(cell(record, 'name')) || undefined;
    out.push({
      ok: true,
      value: { row, name, telefono, email, platform, labels, unknownLabels },
    });
  }
  if (count === 0) throw new AppError('VALIDATION', 'El archivo no tiene filas de datos, solo la fila de títulos');
  return out;
}

/** A lead or clean lead as the import sees it: the stored one (locked) or one this import creates. */
interface Person {
  id: string;
  name: string;
  telefono: string | null;
  email: string | null;
  labels: string[];
  /** Creation order: stored rows by created_at, new ones after them in file order. */
  order: number;
  isNew: boolean;
  changed: boolean;
}
interface LeadRecord extends Person {
  platform: string;
  cleanLeadId: string | null;
  details: Detail[];
}
interface CleanLeadRecord extends Person {
  details: Detail[];
  /** The e-mail of the import's detail (once per clean lead and import). */
  importEmail?: string;
}

/** People by phone and by e-mail, kept current as the import fills in missing ones. */
class PeopleIndex<T extends Person> {
  private readonly byKey = new Map<string, T[]>();
  add(p: T) {
    if (p.telefono) this.push(`t:${p.telefono}`, p);
    if (p.email) this.push(`e:${p.email}`, p);
  }
  /** Everyone with this phone or this e-mail. */
  find(telefono: string | null | undefined, email: string | null | undefined): T[] {
    const found = [...(telefono ? (this.byKey.get(`t:${telefono}`) ?? []) : []), ...(email ? (this.byKey.get(`e:${email}`) ?? []) : [])];
    return [...new Set(found)];
  }
  private push(key: string, p: T) {
    const list = this.byKey.get(key) ?? [];
    if (!list.includes(p)) list.push(p);
    this.byKey.set(key, list);
  }
}

/** A JSON text parameter: one bind value however many rows (pg's limit is 65,535 parameters). */
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const WRITE_CHUNK = 2000;
const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / WRITE_CHUNK) }, (_, i) => items.slice(i * WRITE_CHUNK, (i + 1) * WRITE_CHUNK));
const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];

/**
 * POST /leads/import. Every valid row becomes a lead, or is merged into the company's lead with
 * the same normalised phone (else e-mail) — also one an earlier row of the same file created —
 * and each person into their clean lead by the rule inbound messages follow (decision 0013:
 * phone first, then e-mail, the oldest on ties; missing phone or e-mail filled; a detail added,
 * newest first, at most 500).
 *
 * Set-based, not row by row: one read locks the stored leads and clean leads the file names,
 * the merge runs in memory in file order, and the writes are a few multi-row statements. Row by
 * row, 20,000 rows took over ten minutes on the embedded database (each equality lookup on a
 * trigram-indexed phone costs ~10 ms there); this takes seconds. Runs in the caller's
 * transaction: a failure writes nothing. Imports of one company run one at a time.
 */
export async function importLeads(
  tx: Db,
  tenant: Tenant,
  bytes: Uint8Array,
  /** Labels every person of the file gets besides their own (a RetailRocket segment's, decision 0055). */
  options: { labelIds?: string[] } = {},
): Promise<LeadImportResult> {
  const c = tenant.companyId;
  const { rows: companyRows } = await tx.execute<{ country: CountryCode }>(sql`select country from companies where id = ${c}`);
  const { rows: labelRows } = await tx.execute<{ id: string; name: string }>(sql`select id, name from mostrador_labels where company_id = ${c}`);
  const labelIds = new Map(labelRows.map((l) => [foldName(l.name), l.id]));
  const parsed = readLeadCsv(bytes, companyRows[0]?.country ?? 'PE', labelIds);
  const valid = parsed.flatMap((p) => (p.ok ? [p.value] : []));
  if (options.labelIds?.length) for (const row of valid) row.labels = union(row.labels, options.labelIds);

  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${c}:lead-import`}, 0))`);
  const phones = json([...new Set(valid.flatMap((r) => (r.telefono ? [r.telefono] : [])))]);
  const emails = json([...new Set(valid.flatMap((r) => (r.email ? [r.email] : [])))]);
  const matching = sql`company_id = ${c} and (telefono in (select jsonb_array_elements_text(${phones}))
      or email in (select jsonb_array_elements_text(${emails})))`;
  const { rows: storedLeads } = await tx.execute<{
    id: string;
    name: string;
    telefono: string | null;
    email: string | null;
    platform: string;
    mostrador_labels: string[] | null;
    clean_lead_id: string | null;
  }>(
    sql`select id, name, telefono, email, platform, mostrador_labels, clean_lead_id from leads where ${matching} order by created_at, id for update`,
  );
  // the clean leads of those people: by the file's and the stored leads' phones and e-mails, and the stored leads' own
  const phonesOf = new Set([
    ...valid.flatMap((r) => (r.telefono ? [r.telefono] : [])),
    ...storedLeads.flatMap((l) => (l.telefono ? [l.telefono] : [])),
  ]);
  const emailsOf = new Set([...valid.flatMap((r) => (r.email ? [r.email] : [])), ...storedLeads.flatMap((l) => (l.email ? [l.email] : []))]);
  const ownIds = storedLeads.flatMap((l) => (l.clean_lead_id ? [l.clean_lead_id] : []));
  const { rows: storedCleanLeads } = await tx.execute<{
    id: string;
    name: string;
    telefono: string | null;
    email: string | null;
    mostrador_labels: string[] | null;
    details: Detail[] | null;
  }>(
    sql`select id, name, telefono, email, mostrador_labels, details from clean_leads
         where company_id = ${c} and (telefono in (select jsonb_array_elements_text(${json([...phonesOf])}))
            or email in (select jsonb_array_elements_text(${json([...emailsOf])}))
            or id in (select (jsonb_array_elements_text(${json(ownIds)}))::uuid))
         order by created_at, id for update`,
  );

  let order = 0;
  const leads = new PeopleIndex<LeadRecord>();
  const allLeads: LeadRecord[] = storedLeads.map((l) => ({
    id: l.id,
    name: l.name,
    telefono: l.telefono,
    email: l.email,
    platform: l.platform,
    labels: l.mostrador_labels ?? [],
    cleanLeadId: l.clean_lead_id,
    details: [],
    order: order++,
    isNew: false,
    changed: false,
  }));
  for (const l of allLeads) leads.add(l);
  const cleanLeads = new PeopleIndex<CleanLeadRecord>();
  const allCleanLeads: CleanLeadRecord[] = storedCleanLeads.map((cl) => ({
    id: cl.id,
    name: cl.name,
    telefono: cl.telefono,
    email: cl.email,
    labels: cl.mostrador_labels ?? [],
    details: cl.details ?? [],
    order: order++,
    isNew: false,
    changed: false,
  }));
  for (const cl of allCleanLeads) cleanLeads.add(cl);
  const cleanById = new Map(allCleanLeads.map((cl) => [cl.id, cl]));

  const now = new Date().toISOString();
  const result: LeadImportResult & Required<Pick<LeadImportResult, 'warnings'>> = {
    msg: '',
    created: 0,
    merged: 0,
    rejected: [],
    warnings: [],
  };
  for (const item of parsed) {
    if (!item.ok) {
      result.rejected.push({ row: item.row, reason: item.reason });
      continue;
    }
    const row = item.value;
    for (const label of row.unknownLabels) result.warnings.push({ row: row.row, reason: importReasons.label(label) });
    // the person's lead: same phone first, then same e-mail; on the file's platform when there are several; the oldest
    const lead = leads
      .find(row.telefono, row.email)
      .sort(
        (a, b) =>
          Number(b.telefono === (row.telefono ?? null)) - Number(a.telefono === (row.telefono ?? null)) ||
          Number(b.platform === row.platform) - Number(a.platform === row.platform) ||
          a.order - b.order,
      )[0];
    const name = row.name ?? lead?.name ?? row.email ?? row.telefono ?? 'Lead importado';
    // the stored phone and e-mail are the lead's identity and stay; a missing one is filled
    const telefono = lead?.telefono ?? row.telefono ?? null;
    const email = lead?.email ?? row.email ?? null;

    // the clean lead, as inbound finds it: the lead's own; else by phone or e-mail, the same phone first, then the oldest
    let clean =
      (lead?.cleanLeadId ? cleanById.get(lead.cleanLeadId) : undefined) ??
      cleanLeads.find(telefono, email).sort((a, b) => Number(b.telefono === telefono) - Number(a.telefono === telefono) || a.order - b.order)[0];
    if (!clean) {
      clean = {
        id: randomUUID(),
        name,
        telefono,
        email,
        labels: [],
        details: [],
        order: order++,
        isNew: true,
        changed: true,
      };
      allCleanLeads.push(clean);
    } else {
      clean.telefono ??= telefono;
      clean.email ??= email;
      clean.changed = true;
    }
    cleanLeads.add(clean);
    clean.importEmail = email ?? clean.importEmail;
    clean.labels = union(clean.labels, row.labels);

    if (lead) {
      Object.assign(lead, {
        name,
        telefono,
        email,
        labels: union(lead.labels, row.labels),
        cleanLeadId: clean.id,
        changed: true,
      });
      leads.add(lead);
      result.merged += 1;
    } else {
      // with a phone, a WhatsApp lead: the person's first WhatsApp message then lands on it (inbound finds it by phone)
      const created: LeadRecord = {
        id: randomUUID(),
        name,
        telefono,
        email,
        platform: row.platform ?? (telefono ? 'whatsapp' : 'web'),
        labels: row.labels,
        cleanLeadId: clean.id,
        details: [{ email: email ?? undefined, source: 'importación', updatedAt: now }],
        order: order++,
        isNew: true,
        changed: true,
      };
      allLeads.push(created);
      leads.add(created);
      result.created += 1;
    }
  }

  // each clean lead the import touched gets one detail for it, newest first, at most 500
  const cleanRows = allCleanLeads
    .filter((cl) => cl.changed)
    .map((cl) => ({
      id: cl.id,
      name: cl.name,
      telefono: cl.telefono,
      email: cl.email,
      labels: cl.labels.length ? cl.labels : null,
      isNew: cl.isNew,
      details: mergeDetails(cl.details, { email: cl.importEmail, source: 'importación', updatedAt: now }),
    }));
  const leadRows = allLeads
    .filter((l) => l.changed)
    .map((l) => {
      // what the contract allows on a lead, checked like any create
      const checked = resources.leads.input.parse({
        name: l.name,
        telefono: l.telefono ?? undefined,
        email: l.email ?? undefined,
        platform: l.platform,
        status: 'sin-asignar',
        mostradorLabels: l.labels,
        cleanLeadId: l.cleanLeadId ?? undefined,
        details: l.details,
      }) as { name: string; platform: string; details: Detail[] };
      return {
        id: l.id,
        name: checked.name,
        telefono: l.telefono,
        email: l.email,
        platform: checked.platform,
        labels: l.labels.length ? l.labels : null,
        cleanLeadId: l.cleanLeadId,
        details: checked.details,
        isNew: l.isNew,
      };
    });

  const recordset = (rows: unknown[], columns: string) => sql`jsonb_to_recordset(${json(rows)}) as x(${sql.raw(columns)})`;
  for (const part of chunks(cleanRows.filter((r) => r.isNew))) {
    await tx.execute(sql`insert into clean_leads (id, company_id, name, telefono, email, status, mostrador_labels, details)
        select x.id, ${c}, x.name, x.telefono, x.email, 'sin-asignar', x.labels, x.details
          from ${recordset(part, 'id uuid, name text, telefono text, email text, labels jsonb, details jsonb')}`);
  }
  for (const part of chunks(cleanRows.filter((r) => !r.isNew))) {
    await tx.execute(sql`update clean_leads t set telefono = x.telefono, email = x.email, mostrador_labels = x.labels, details = x.details, updated_at = now()
          from ${recordset(part, 'id uuid, telefono text, email text, labels jsonb, details jsonb')}
         where t.company_id = ${c} and t.id = x.id`);
  }
  for (const part of chunks(leadRows.filter((r) => r.isNew))) {
    await tx.execute(sql`insert into leads (id, company_id, name, telefono, email, platform, status, mostrador_labels, clean_lead_id, details)
        select x.id, ${c}, x.name, x.telefono, x.email, x.platform, 'sin-asignar', x.labels, x."cleanLeadId", x.details
          from ${recordset(part, 'id uuid, name text, telefono text, email text, platform text, labels jsonb, "cleanLeadId" uuid, details jsonb')}`);
  }
  for (const part of chunks(leadRows.filter((r) => !r.isNew))) {
    await tx.execute(sql`update leads t set name = x.name, telefono = x.telefono, email = x.email, mostrador_labels = x.labels,
           clean_lead_id = x."cleanLeadId", updated_at = now()
          from ${recordset(part, 'id uuid, name text, telefono text, email text, labels jsonb, "cleanLeadId" uuid')}
         where t.company_id = ${c} and t.id = x.id`);
  }

  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  result.msg = `Importación terminada: ${plural(result.created, 'lead nuevo', 'leads nuevos')}, ${plural(result.merged, 'combinado', 'combinados')}, ${plural(
    result.rejected.length,
    'fila rechazada',
    'filas rechazadas',
  )}${result.warnings.length ? `, ${plural(result.warnings.length, 'aviso', 'avisos')}` : ''}`;
  return result;
}
