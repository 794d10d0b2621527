import { apiKeyPermissions } from '@mostrador/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { newSecret } from '../modules/api-keys/service.js';
import { hashOfSecret } from '../plugins/auth.js';

/**
 * Two keys the business's own systems use (decision 0071): the accounting ERP reading orders and
 * leads every few minutes, and a Zapier-style flow that writes leads, which expired last week.
 * Their secrets are random and never shown: /configuracion/api lists them as any key is listed.
 */
export async function seedDemoApiKeys(tx: Db, companyId: string, adminId: string | null): Promise<void> {
  const keys = [
    { name: 'ERP contable', permissions: ['catalog.list', 'catalog.read', 'leads.list', 'leads.read'], expires: null, used: "now() - interval '7 minutes'", made: '40 days' },
    { name: 'Zapier · formularios web', permissions: ['leads.create', 'leads.update'], expires: "now() - interval '6 days'", used: "now() - interval '6 days 2 hours'", made: '96 days' },
  ];
  for (const key of keys) {
    const unknown = key.permissions.filter((p) => !apiKeyPermissions.includes(p));
    if (unknown.length) throw new Error(`La clave de demostración ${key.name} tiene permisos que no existen: ${unknown.join(', ')}`);
    const secret = newSecret();
    await tx.execute(sql`insert into api_keys (company_id, corporation_id, name, prefix, secret_hash, permissions, expires_at, created_by, created_at, last_used_at)
      select id, corporation_id, ${key.name}, ${secret.slice(0, 12)}, ${hashOfSecret(secret)}, ${JSON.stringify(key.permissions)}::jsonb,
             ${sql.raw(key.expires ?? 'null')}, ${adminId}, now() - ${key.made}::interval, ${sql.raw(key.used)}
        from companies where id = ${companyId}`);
  }
}
