import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { zEmail, zEnum, zOptionalText, zPhone, zText } from '../fields.js';

/** Mailchimp's member statuses. */
export const mailchimpContactStatuses = ['subscribed', 'unsubscribed', 'cleaned', 'pending'] as const;
export type MailchimpContactStatus = (typeof mailchimpContactStatuses)[number];
export const mailchimpContactStatusLabels: Record<MailchimpContactStatus, string> = {
  subscribed: 'Suscrito',
  unsubscribed: 'Desuscrito',
  cleaned: 'Depurado',
  pending: 'Pendiente',
};

/**
 * mailchimp-contacts (SPEC §7, /mailchimp/contactos): members of the Mailchimp audiences. Not
 * shown in the spec: the email (unique in the company), a name, a phone (digits with country
 * code), Mailchimp's status and the member's tag names. No name is required, so the list
 * sorts by email.
 */
export const mailchimpContacts = defineResource({
  key: 'mailchimp-contacts',
  label: 'Contacto de Mailchimp',
  labelPlural: 'Contactos de Mailchimp',
  module: 'marketing',
  fields: {
    email: zEmail(),
    name: zOptionalText(120).optional(),
    telefono: zPhone().optional(),
    status: zEnum(mailchimpContactStatuses),
    tags: z.array(zText(100), { error: formMessages.invalid }).max(100, formMessages.tooLong).optional(),
  },
  defaultSort: { field: 'email', order: 'asc' },
  searchable: ['email', 'name', 'telefono'],
  sortable: ['email', 'name', 'status'],
  unique: ['email'],
  examples: [
    { email: 'carmen.vargas@gmail.com', name: 'Carmen Vargas', telefono: '51999111222', status: 'subscribed', tags: ['Cliente frecuente'] },
    { email: 'jorge.linares@outlook.com', name: 'Jorge Linares', status: 'unsubscribed' },
    { email: 'rosa.quispe@hotmail.com', name: 'Rosa Quispe', status: 'subscribed', tags: ['Mayorista', 'Newsletter semanal'] },
  ],
});
