import { defineResource } from '../define-resource.js';
import { zOptionalText, zText, zUrl } from '../fields.js';

/**
 * brands (SPEC §7). Fields are not shown in the spec: a brand has a name (unique in the
 * company) and optionally a logo URL and a description.
 */
export const brands = defineResource({
  key: 'brands',
  label: 'Marca',
  labelPlural: 'Marcas',
  module: 'catalog',
  fields: {
    name: zText(120),
    logoUrl: zUrl().optional(),
    description: zOptionalText(500).optional(),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'description'],
  sortable: ['name'],
  unique: ['name'],
  examples: [
    { name: 'Inca Kola', logoUrl: 'https://cdn.mostrador.app/marcas/inca-kola.png', description: 'Gaseosas' },
    { name: 'Gloria', description: 'Lácteos y derivados' },
    { name: 'Alicorp', description: 'Consumo masivo' },
    { name: 'Sublime', description: 'Chocolates' },
  ],
});
