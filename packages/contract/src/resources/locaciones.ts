import { defineResource } from '../define-resource.js';
import { zOptionalText, zText } from '../fields.js';

/**
 * locaciones (SPEC §7): the business's stores and warehouses. Not shown in the spec: a
 * location has a name, an address, a city and optionally a phone.
 */
export const locaciones = defineResource({
  key: 'locaciones',
  label: 'Locación',
  labelPlural: 'Locaciones',
  module: 'organization',
  fields: {
    name: zText(120),
    address: zText(300),
    city: zOptionalText(120).optional(),
    phone: zOptionalText(40).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'address', 'city'],
  sortable: ['name', 'city'],
  unique: ['name'],
  examples: [
    { name: 'Tienda Miraflores', address: 'Av. Larco 345', city: 'Lima', phone: '+51 1 445 1234' },
    { name: 'Almacén Callao', address: 'Av. Argentina 2020', city: 'Callao' },
    { name: 'Tienda Arequipa', address: 'Calle Mercaderes 120', city: 'Arequipa', phone: '+51 54 22 3344' },
  ],
});
