import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zOptionalText, zText } from '../fields.js';

/**
 * telegram-groups (SPEC §7): the Telegram groups the bot posts to (/telegram/grupos). Not
 * shown in the spec: a name, the group's chat id at Telegram (digits, negative for groups;
 * unique in the company) and a description. Issue 13 (decision 0040): the id may be the group's
 * @username, and its title and type as Telegram answered getChat (POST /telegram/groups/check).
 */
export const telegramGroups = defineResource({
  key: 'telegram-groups',
  label: 'Grupo de Telegram',
  labelPlural: 'Grupos de Telegram',
  module: 'messaging',
  operations: ['list', 'get', 'create', 'update', 'delete'],
  fields: {
    name: zText(120),
    chatId: z
      .string({ error: requiredOr(formMessages.invalid) })
      .trim()
      .min(1, formMessages.required)
      .max(32, formMessages.tooLong)
      .regex(/^(-?\d+|@[A-Za-z]\w{3,31})$/, 'Debe ser el id numérico del chat, como -1001234567890, o su @usuario'),
    description: zOptionalText(500).optional(),
    title: zOptionalText(255).optional(),
    type: zOptionalText(20).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'chatId', 'description'],
  sortable: ['name'],
  unique: ['chatId'],
  examples: [
    { name: 'Avisos de pedidos', chatId: '-1001234567890', description: 'Cada pedido nuevo de la tienda' },
    { name: 'Equipo de reparto', chatId: '-1001234567891', description: 'Motorizados de Lima' },
    { name: 'Ventas del día', chatId: '-1001234567892' },
  ],
});
