import { googleMessages } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/database.js';
import { GOOGLE_SCOPES, sandboxResourceName } from '../integrations/google/people.js';
import type { SecretBox } from '../lib/secret-box.js';

/**
 * The demo's Google contacts (decision 0052), so /telefonos and /telefonos/contactos/{id} have
 * data on a fresh start with no internet: the first phone is connected to the sandbox Google (a
 * «sandbox» OAuth client: consent, tokens and contacts answered locally) with two thirds of its
 * leads already created as contacts and the sync that did it; the phone whose example tokens are
 * not Google's must be reconnected, with the reason; the third is not connected.
 */
export async function seedDemoGoogle(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal'>, now = new Date()): Promise<void> {
  const phones = await rowsOf<{ id: string; numero: string; has_creds: boolean }>(
    db,
    sql`select id, numero, credenciales is not null as has_creds from telefonos where company_id = ${companyId} order by numero`,
  );
  const connected = phones.find((p) => !p.has_creds);
  if (!connected) return;
  const creds = {
    clientId: 'sandbox-demo-123456789012.apps.googleusercontent.com',
    clientSecret: 'sandbox-GOCSPX-demo-secret',
    access_token: 'sandbox-access-demo0001',
    refresh_token: 'sandbox-refresh-demo0001',
    scope: GOOGLE_SCOPES.join(' '),
    token_type: 'Bearer',
    expiry_date: now.getTime() + 3600_000,
  };
  await db.execute(sql`update telefonos set credenciales = ${JSON.stringify(secrets.seal(creds))}::jsonb,
    google_contact_email = coalesce(google_contact_email, 'contactos.demo@gmail.com') where id = ${connected.id}`);
  await db.execute(sql`insert into google_people_phones (telefono_id, company_id, status, client_id_hint, connected_at)
    values (${connected.id}, ${companyId}, 'conectado', 'sandbox-demo…', ${new Date(now.getTime() - 12 * 86_400_000).toISOString()}::timestamptz)`);
  const leads = await rowsOf<{ id: string }>(
    db,
    sql`select id from leads where company_id = ${companyId} and telefono_id = ${connected.id} and telefono is not null order by created_at, id`,
  );
  // the leads that came before the last sync are in Google; the newer third waits for «Sincronizar con Google»
  const synced = leads.slice(0, Math.ceil((leads.length * 2) / 3));
  if (synced.length) {
    await db.execute(sql`insert into google_contacts (telefono_id, lead_id, company_id, resource_name)
      select ${connected.id}, x.id, ${companyId}, x.rn from jsonb_to_recordset(${JSON.stringify(synced.map((l) => ({ id: l.id, rn: sandboxResourceName(l.id) })))}::jsonb) as x(id uuid, rn text)`);
  }
  const at = new Date(now.getTime() - 3 * 86_400_000);
  await db.execute(sql`insert into google_contact_syncs (company_id, telefono_id, status, total, done, created, failed, requests, message, created_at, started_at, finished_at)
    values (${companyId}, ${connected.id}, 'terminada', ${synced.length}, ${synced.length}, ${synced.length}, 0, ${Math.ceil(synced.length / 200)},
            ${googleMessages.done(synced.length, 0)}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz, ${new Date(at.getTime() + 4000).toISOString()}::timestamptz)`);
  // the example phone's tokens are not Google's: as if Google had refused them on the last sync
  for (const p of phones.filter((x) => x.has_creds)) {
    await db.execute(sql`insert into google_people_phones (telefono_id, company_id, status, reason, client_id_hint)
      values (${p.id}, ${companyId}, 'reconectar', ${googleMessages.invalidGrant}, '123456789012…')`);
  }
}
