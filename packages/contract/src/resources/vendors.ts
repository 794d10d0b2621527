import { defineResource } from '../define-resource.js';
import { zEmail, zEnum, zPhone, zText } from '../fields.js';

export const vendorSources = ['odoo', 'woocommerce', 'manual'] as const;
export type VendorSource = (typeof vendorSources)[number];
export const vendorSourceLabels: Record<VendorSource, string> = {
  odoo: 'Odoo',
  woocommerce: 'WooCommerce',
  manual: 'Manual',
};

/**
 * vendors (SPEC §7: list and delete only). Sellers are synchronised from the ERP or the
 * online store, never created or edited in the UI; deleting one only removes the copy.
 * Not shown in the spec: a seller has a name, optionally an email and a phone, the seller's
 * code in the external system (unique in the company) and where it came from (`source`).
 */
export const vendors = defineResource({
  key: 'vendors',
  label: 'Vendedor',
  labelPlural: 'Vendedores',
  module: 'organization',
  operations: ['list', 'delete'],
  fields: {
    name: zText(120),
    email: zEmail().optional(),
    phone: zPhone().optional(),
    code: zText(60),
    source: zEnum(vendorSources),
  },
  defaultSort: { field: 'name', order: 'asc' },
  searchable: ['name', 'code', 'email'],
  sortable: ['name', 'code'],
  unique: ['code'],
  examples: [
    { name: 'Jorge Salazar', email: 'jorge.salazar@bodegalucho.pe', phone: '51998877665', code: 'ODOO-014', source: 'odoo' },
    { name: 'Milagros Castro', email: 'milagros.castro@bodegalucho.pe', code: 'WC-207', source: 'woocommerce' },
    { name: 'Patricia Rojas', phone: '51976543210', code: 'MAN-003', source: 'manual' },
  ],
});
