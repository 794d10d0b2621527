import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { zEmail, zId, zPhone, zRefId, zText } from '../fields.js';

/**
 * contactos (SPEC §3, §7): the contacts of a business phone (/telefonos/contactos/{id},
 * /contactos), as synchronised with its Google account. From SPEC §3: nombre. Not shown: the
 * phone (digits with country code), an email and the business phone they belong to
 * (telefonoId). DELETE sends {telefonoId} — the phone it is deleted from, also in that phone's
 * Google contacts; a contact of no phone sends {} (decision 0010).
 */
export const contactos = defineResource({
  key: 'contactos',
  label: 'Contacto',
  labelPlural: 'Contactos',
  module: 'leads',
  fields: {
    nombre: zText(120),
    telefono: zPhone(),
    email: zEmail().optional(),
    telefonoId: zRefId(),
  },
  refs: { telefonoId: 'telefonos' },
  deleteBody: z.object({ telefonoId: zId().optional() }).strict(),
  defaultSort: { field: 'nombre', order: 'asc' },
  searchable: ['nombre', 'telefono', 'email'],
  sortable: ['nombre'],
  filterable: ['telefonoId'],
  examples: [
    { nombre: 'Carmen Vargas', telefono: '51999111222', email: 'carmen.vargas@gmail.com' },
    { nombre: 'Eduardo Chávez', telefono: '51988222333' },
    { nombre: 'Sergio Gutiérrez', telefono: '51977333444', email: 'sergio.gutierrez@yahoo.com' },
  ],
});
