import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { AttributeName, AttributeTerms } from './attribute-terms';

/** /ecommerce/atributos: each attribute of each store with all its values, added and removed on the row. */
export const screen = defineScreen({
  resource: resources['ecommerces-attributes'],
  title: 'Atributos',
  subtitle: 'Los atributos de productos de tus tiendas (talla, color…) y sus valores',
  newLabel: 'Nuevo atributo',
  editLabel: 'Editar atributo',
  emptyMessage: 'Aún no hay atributos. Sincroniza una tienda en /woocommerce para traer los suyos.',
  noResultsMessage: 'Ningún atributo coincide con la búsqueda',
  columns: [
    { field: 'nombre', render: (row) => createElement(AttributeName, { attribute: row }) },
    { field: 'terms', label: 'Valores', hideOnMobile: false, render: (row) => createElement(AttributeTerms, { attribute: row }) },
    { field: 'country', hideOnMobile: true },
    { field: 'woocommerceId', hideOnMobile: true },
  ],
  form: ['nombre', 'country', 'woocommerceId', 'terms'],
  fields: {
    terms: {
      label: 'Valores',
      fields: { _id: { label: 'Id en la tienda' }, name: { label: 'Valor' } },
      helperText: 'Se guardan en Mostrador; si la tienda cambia este atributo, la próxima sincronización trae sus valores',
    },
    woocommerceId: { label: 'Id en WooCommerce' },
    country: { label: 'Tienda (país)' },
  },
});
