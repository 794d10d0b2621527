import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zEnum, zText } from '../fields.js';
import { imaginaVariables, imaginaVariablesOf } from '../imagina.js';

export const templateLanguages = ['es', 'es_PE', 'en'] as const;
export type TemplateLanguage = (typeof templateLanguages)[number];
export const templateLanguageLabels: Record<TemplateLanguage, string> = { es: 'Español', es_PE: 'Español (Perú)', en: 'Inglés' };

export const templateCategories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof templateCategories)[number];
export const templateCategoryLabels: Record<TemplateCategory, string> = {
  MARKETING: 'Marketing',
  UTILITY: 'Utilidad',
  AUTHENTICATION: 'Autenticación',
};

export const templateStatuses = ['draft', 'approved', 'rejected'] as const;
export type TemplateStatus = (typeof templateStatuses)[number];
export const templateStatusLabels: Record<TemplateStatus, string> = { draft: 'Borrador', approved: 'Aprobada', rejected: 'Rechazada' };

/**
 * imagina_template_messages (SPEC §3, §7): the company's own message templates (decision 0043).
 * From SPEC §3: name. Not shown, decided: a name (lower-case letters, digits and underscores;
 * unique in the company), its language and category, a body written with named variables from
 * the customer's file (`{{nombre}}`, `{{empresa}}`… — `imaginaVariables`), the company's own
 * review status (only an approved one is sent; absent = draft) and, optionally, the name of
 * the approved WhatsApp template (same language) to use for people outside the 24-hour window.
 * Sent through POST /imagina_template_messages/send_single_message, /send_bulk_messages and
 * /send_massive_messages: inside the window as free text (free of charge), outside it as the
 * linked WhatsApp template.
 */
export const imaginaTemplateMessages = defineResource({
  key: 'imagina_template_messages',
  label: 'Mensaje de plantilla Imagina',
  labelPlural: 'Mensajes de plantilla Imagina',
  module: 'messaging',
  fields: {
    name: z
      .string({ error: requiredOr(formMessages.invalid) })
      .trim()
      .toLowerCase()
      .min(1, formMessages.required)
      .max(512, formMessages.tooLong)
      .regex(/^[a-z0-9_]+$/, 'Solo letras minúsculas, números y guiones bajos (_)'),
    language: zEnum(templateLanguages),
    category: zEnum(templateCategories),
    body: zText(1024).refine((b) => imaginaVariablesOf(b).every((v) => v in imaginaVariables), {
      message: `Solo se permiten las variables ${Object.keys(imaginaVariables).map((v) => `{{${v}}}`).join(', ')}`,
    }),
    status: zEnum(templateStatuses).optional(),
    whatsappTemplate: z
      .string({ error: formMessages.invalid })
      .trim()
      .max(512, formMessages.tooLong)
      .regex(/^[a-z0-9_]*$/, 'Es el nombre de la plantilla de WhatsApp: letras minúsculas, números y guiones bajos (_)')
      .optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'body'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    {
      name: 'promo_gaseosas',
      language: 'es_PE',
      category: 'MARKETING',
      body: '{{nombre}}, este fin de mes en {{empresa}} tenemos 2x1 en gaseosas de 1.5 L. Responde SÍ y te separamos tu pedido.',
      status: 'approved',
      whatsappTemplate: 'promo_fin_de_mes',
    },
    {
      name: 'cotizacion_pendiente',
      language: 'es_PE',
      category: 'UTILITY',
      body: 'Hola {{nombre}}, te escribe {{agente}} de {{empresa}}. ¿Pudiste revisar la cotización que te enviamos? Quedo atento.',
      status: 'approved',
      whatsappTemplate: 'seguimiento_cotizacion',
    },
    {
      name: 'bienvenida_cliente',
      language: 'es_PE',
      category: 'MARKETING',
      body: '¡Hola {{nombre}}! Gracias por escribir a {{empresa}}. ¿En qué te podemos ayudar hoy?',
      status: 'approved',
    },
    {
      name: 'promo_navidad',
      language: 'es_PE',
      category: 'MARKETING',
      body: '{{nombre}}, ya llegaron las canastas navideñas a {{empresa}}. ¿Te separamos una?',
      status: 'draft',
    },
  ],
});
