import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zEnum, zText } from '../fields.js';

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
 * imagina_template_messages (SPEC §3, §7): WhatsApp template messages sent through Imagina.
 * From SPEC §3: name. Not shown: the WhatsApp template fields, i.e. the name as WhatsApp
 * wants it (lower-case letters, digits and underscores; unique in the company), its language,
 * category, body (at most 1024 characters, WhatsApp's limit) and review status (absent =
 * draft).
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
    body: zText(1024),
    status: zEnum(templateStatuses).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'body'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    {
      name: 'bienvenida_cliente',
      language: 'es_PE',
      category: 'MARKETING',
      body: '¡Hola {{1}}! Gracias por escribir a Bodega Lucho. ¿En qué te podemos ayudar hoy?',
      status: 'approved',
    },
    {
      name: 'confirmacion_pedido',
      language: 'es',
      category: 'UTILITY',
      body: 'Tu pedido {{1}} fue confirmado. Llegará entre las {{2}} y las {{3}}.',
      status: 'approved',
    },
    {
      name: 'promo_fin_de_mes',
      language: 'es_PE',
      category: 'MARKETING',
      body: '{{1}}, este fin de mes tenemos 2x1 en gaseosas. Responde SÍ para separar tu pedido.',
      status: 'draft',
    },
  ],
});
