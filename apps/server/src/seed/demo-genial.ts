import { and, asc, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.js';
import { genialInvoices, genialSettings } from '../db/genial-tables.js';
import { ecommercesOrdersTable, marketplaceOrdersTable } from '../db/resource-tables.js';
import type { SecretBox } from '../lib/secret-box.js';
import { issueInvoice } from '../modules/genial/invoices.js';
import type { GenialOrderKind } from '@mostrador/contract';

/**
 * The demo's Genial (decision 0037): sandbox settings for Perú and Chile (`*.sandbox.test`,
 * answered in-process), and invoices in every state on the seeded marketplace and e-commerce
 * orders — issued through the sandbox (boleta without document, factura with a company's RUC /
 * RUT), failed (a RUC whose check digit is wrong: «Reintentar» after correcting it), pending (its
 * job lost: retried after 2 minutes) and orders never issued. No internet.
 */
export async function seedGenial(db: Db, companyId: string, secrets: Pick<SecretBox, 'seal' | 'open'>): Promise<void> {
  await db.insert(genialSettings).values([
    {
      companyId,
      country: 'PE',
      apiUrl: 'https://genial-pe.sandbox.test',
      token: secrets.seal('sandbox-genial-pe'),
      issuerTaxId: '20601234565',
      issuerName: 'Demo Perú S.A.C.',
      seriesFactura: 'F001',
      seriesBoleta: 'B001',
    },
    {
      companyId,
      country: 'CL',
      apiUrl: 'https://genial-cl.sandbox.test',
      token: secrets.seal('sandbox-genial-cl'),
      issuerTaxId: '77123456-9',
      issuerName: 'Demo Chile SpA',
      seriesFactura: 'FE01',
      seriesBoleta: 'BE01',
    },
  ]);
  const mo = marketplaceOrdersTable as unknown as Record<string, AnyPgColumn>;
  const eo = ecommercesOrdersTable as unknown as Record<string, AnyPgColumn>;
  const marketplace = (await db
    .select({ id: mo.id, country: mo.country })
    .from(marketplaceOrdersTable)
    .where(eq(mo.companyId, companyId))
    .orderBy(asc(mo.createdAt), asc(mo.orderNumber))) as Array<{ id: string; country: string }>;
  const ecommerce = (await db
    .select({ id: eo.id, country: eo.country })
    .from(ecommercesOrdersTable)
    .where(and(eq(eo.companyId, companyId)))
    .orderBy(asc(eo.createdAt), asc(eo.number))
    .limit(40)) as Array<{ id: string; country: string }>;

  const businessOf: Record<string, string> = { PE: '20100070970', CL: '76.086.428-5' };
  const badOf: Record<string, string> = { PE: '20100070972', CL: '76.086.428-3' };
  type Plan = 'boleta' | 'factura' | 'failed' | 'pending' | 'none';
  // every state shows even with a handful of orders (the e-commerce demo has few)
  const plan: Plan[] = ['failed', 'boleta', 'pending', 'none', 'factura', 'boleta'];
  const apply = async (kind: GenialOrderKind, orders: Array<{ id: string; country: string }>) => {
    let n = 0;
    for (const o of orders) {
      if (o.country !== 'PE' && o.country !== 'CL') continue;
      const step = plan[n++ % plan.length];
      if (step === 'none') continue;
      const customerTaxId = step === 'factura' ? businessOf[o.country] : step === 'failed' ? badOf[o.country] : null;
      await db.insert(genialInvoices).values({ companyId, orderKind: kind, orderId: o.id, status: 'pending', customerTaxId });
      if (step !== 'pending') await issueInvoice(db, secrets, companyId, kind, o.id);
    }
  };
  await apply('marketplace', marketplace);
  await apply('ecommerce', ecommerce);
}
