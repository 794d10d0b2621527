import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zEnum, zOptionalBoolean, zOptionalText, zRefId, zText } from '../fields.js';

export const telegramMediaKinds = ['photo', 'document'] as const;
export const telegramMediaKindLabels: Record<(typeof telegramMediaKinds)[number], string> = { photo: 'Imagen', document: 'Documento' };

export const weekdays = ['lun', 'mar', 'mie', 'jue', 'vie', 'sab', 'dom'] as const;
export type Weekday = (typeof weekdays)[number];
export const weekdayLabels: Record<Weekday, string> = {
  lun: 'Lunes',
  mar: 'Martes',
  mie: 'Miércoles',
  jue: 'Jueves',
  vie: 'Viernes',
  sab: 'Sábado',
  dom: 'Domingo',
};

/**
 * telegram-routines (SPEC §7, /telegram/rutinas): a message posted to a Telegram group on
 * given weekdays at a given time (HH:MM, the company's local time); POST /{id}/execute posts
 * it now. Not shown in the spec: a name, the group, the message, the days, the time and an
 * active flag (absent = active). Issue 13 (decision 0040): more groups beside the first
 * (`telegramGroupIds`, each another of the company's groups) and an optional image or document
 * by its public URL, sent with the message as its caption. The first group is required on create
 * and cannot be cleared by an update (decision 0061); deleting the group clears it all the same.
 */
export const telegramRoutines = defineResource({
  key: 'telegram-routines',
  label: 'Rutina de Telegram',
  labelPlural: 'Rutinas de Telegram',
  module: 'messaging',
  fields: {
    name: zText(120),
    telegramGroupId: zRefId(),
    telegramGroupIds: z.array(zRefId(), { error: requiredOr(formMessages.invalid) }).max(50, formMessages.tooLong).optional(),
    message: zText(4096),
    mediaUrl: zOptionalText(2000)
      .refine((v) => !v || /^https?:\/\/\S+$/i.test(v), 'Debe ser un enlace que empiece con https://')
      .optional(),
    mediaKind: zEnum(telegramMediaKinds).optional(),
    days: z
      .array(zEnum(weekdays), { error: requiredOr(formMessages.invalid) })
      .min(1, 'Elige al menos un día')
      .max(7, formMessages.tooLong)
      .refine((days) => new Set(days).size === days.length, 'No repitas días'),
    time: z
      .string({ error: requiredOr(formMessages.invalid) })
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Usa el formato HH:MM, como 09:30'),
    active: zOptionalBoolean(),
  },
  refs: { telegramGroupId: 'telegram-groups', telegramGroupIds: 'telegram-groups' },
  // a routine posts somewhere: without its group it was accepted, then failed at every execution (decision 0040)
  requiredRefs: { telegramGroupId: 'Elige el grupo de Telegram en el que se publica la rutina' },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'message'],
  sortable: ['name', 'time'],
  examples: [
    { name: 'Cierre de caja', message: 'Recuerden enviar el cuadre de caja antes de las 10 p. m.', days: ['lun', 'mar', 'mie', 'jue', 'vie', 'sab'], time: '21:30', active: true },
    { name: 'Inventario semanal', message: 'Hoy toca conteo de inventario en almacén.', days: ['lun'], time: '08:00', active: true },
    { name: 'Promos del fin de semana', message: 'Publiquen las promos del fin de semana en los estados de WhatsApp.', days: ['vie', 'sab'], time: '09:00', active: false },
  ],
});
