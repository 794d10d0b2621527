import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { type Db, rowsOf } from '../../db/database.js';
import { createLabelClient, createSandboxLabelClient, type LabelClient, type LabelTarget } from '../../integrations/meta/labels.js';
import type { SecretBox } from '../../lib/secret-box.js';

/** The labels' client the settings name: Graph, or the demo's sandbox page. */
export const labelClientOf = (config: Pick<Config, 'sendProvider' | 'graphApiUrl'>): LabelClient =>
  config.sendProvider === 'graph' ? createLabelClient(config.graphApiUrl) : createSandboxLabelClient();

/**
 * The company's Facebook page and its opened token (the sync and the people's labels, decision
 * 0057), or why there is none, in Spanish.
 */
export async function labelPageOf(db: Db, secrets: Pick<SecretBox, 'open'>, companyId: string): Promise<LabelTarget | string> {
  const [page] = await rowsOf<{ provider_id: string; access_token: string | null }>(
    db,
    sql`select provider_id, access_token from channels where company_id = ${companyId} and kind = 'messenger'`,
  );
  if (!page) return 'La compañía no tiene una página de Facebook conectada: conéctala en Integraciones › WhatsApp (página de Facebook)';
  try {
    return { pageId: page.provider_id, accessToken: page.access_token ? secrets.open<string>(page.access_token) : undefined };
  } catch {
    return 'El token de la página no se puede abrir (se guardó con otra clave): guárdalo de nuevo en Integraciones › WhatsApp';
  }
}
