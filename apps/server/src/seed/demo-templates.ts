import { sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';

/** The demo line's WhatsApp Business Account (sandbox): its templates are answered offline. */
export const DEMO_WABA = '102290129340398';

interface DemoTemplate {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY';
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  reason?: string;
  header?: object;
  body: string;
  bodyExamples: string[];
  footer?: string;
  buttons?: object[];
  variableFields?: string[];
  providerId: string;
}

const templates: DemoTemplate[] = [
  {
    name: 'seguimiento_cotizacion',
    language: 'es_PE',
    category: 'UTILITY',
    status: 'APPROVED',
    header: { format: 'TEXT', text: 'Tu cotización' },
    body: 'Hola {{1}}, te escribimos de {{2}} por la cotización que pediste. ¿Quieres que la confirmemos para hoy?',
    bodyExamples: ['María', 'Bodega Lucho'],
    footer: 'Responde BAJA para no recibir más mensajes',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Sí, confirmar' },
      { type: 'QUICK_REPLY', text: 'Más tarde' },
    ],
    variableFields: ['nombre', 'empresa'],
    providerId: '900000000000001',
  },
  {
    name: 'pedido_en_camino',
    language: 'es_PE',
    category: 'UTILITY',
    status: 'APPROVED',
    header: { format: 'TEXT', text: 'Pedido {{1}}', example: 'A-1024' },
    body: '{{1}}, tu pedido ya salió y llega hoy entre las {{2}}. Cualquier consulta, escríbenos por aquí.',
    bodyExamples: ['María', '15:00 y 17:00'],
    buttons: [{ type: 'URL', text: 'Ver seguimiento', url: 'https://mostrador.example/seguimiento' }],
    variableFields: ['nombre', ''],
    providerId: '900000000000002',
  },
  {
    name: 'promo_fin_de_mes',
    language: 'es_PE',
    category: 'MARKETING',
    status: 'APPROVED',
    // the demo's own picture (drawn by the server, no internet); a real template links a JPEG or PNG
    header: { format: 'IMAGE', mediaUrl: 'http://localhost:3000/api/product-images/botella-e31b23.svg' },
    body: '¡{{1}}, este fin de mes tenemos 2x1 en gaseosas! Responde SÍ y te separamos tu pedido.',
    bodyExamples: ['María'],
    footer: 'Válido hasta agotar stock',
    buttons: [{ type: 'PHONE_NUMBER', text: 'Llamar a la tienda', phoneNumber: '+51987000000' }],
    variableFields: ['nombre'],
    providerId: '900000000000003',
  },
  {
    name: 'recordatorio_pago',
    language: 'es',
    category: 'UTILITY',
    status: 'PENDING',
    body: 'Hola {{1}}, te recordamos que tu pago de {{2}} vence el {{3}}.',
    bodyExamples: ['María', 'S/ 120.00', '30 de noviembre'],
    variableFields: ['nombre', '', ''],
    providerId: '900000000000004',
  },
  {
    name: 'oferta_relampago',
    language: 'es_PE',
    category: 'MARKETING',
    status: 'REJECTED',
    reason: 'PROMOTIONAL',
    body: '¡¡¡GANASTE!!! {{1}}, reclama tu premio ahora mismo en nuestra tienda.',
    bodyExamples: ['María'],
    variableFields: ['nombre'],
    providerId: '900000000000005',
  },
  {
    name: 'encuesta_satisfaccion',
    language: 'es',
    category: 'MARKETING',
    status: 'PAUSED',
    body: '{{1}}, ¿cómo calificarías tu última compra? Responde del 1 al 5.',
    bodyExamples: ['María'],
    variableFields: ['nombre'],
    providerId: '900000000000006',
  },
  {
    name: 'catalogo_antiguo',
    language: 'es',
    category: 'MARKETING',
    status: 'DISABLED',
    body: 'Mira nuestro catálogo de la temporada pasada con descuentos.',
    bodyExamples: [],
    providerId: '900000000000007',
  },
];

/**
 * The demo line's WhatsApp templates in every status (issue 13, decision 0038): the line gets
 * its sandbox WABA id, and the templates are stored as a sync from the sandbox would store them.
 * Idempotent.
 */
export async function seedDemoTemplates(db: Db, companyId: string): Promise<void> {
  await db.execute(sql`update channels set business_account_id = ${DEMO_WABA}
      where company_id = ${companyId} and kind = 'whatsapp' and business_account_id is null`);
  for (const t of templates) {
    await db.execute(sql`insert into whatsapp_templates (company_id, business_account_id, provider_id, name, language, category, status, reason,
          header, body, body_examples, footer, buttons, variable_fields, synced_at)
        values (${companyId}, ${DEMO_WABA}, ${t.providerId}, ${t.name}, ${t.language}, ${t.category}, ${t.status}, ${t.reason ?? null},
          ${t.header ? JSON.stringify(t.header) : null}::jsonb, ${t.body}, ${JSON.stringify(t.bodyExamples)}::jsonb, ${t.footer ?? null},
          ${JSON.stringify(t.buttons ?? [])}::jsonb, ${JSON.stringify(t.variableFields ?? [])}::jsonb, now())
        on conflict do nothing`);
  }
}
