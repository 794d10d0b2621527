import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { CategoryTreeView } from './category-tree';

const emptyMessage = 'Aún no hay categorías de e-commerce. Sincroniza una tienda en /woocommerce o crea una con «Nueva categoría».';
const noResultsMessage = 'Ninguna categoría coincide con la búsqueda';

/** /ecommerce/categorias as trees, one per store (parent 0 = top level), with each category's products. */
export const screen = defineScreen({
  resource: resources['ecommerces-categories'],
  title: 'Categorías de e-commerce',
  subtitle: 'Las categorías de productos de tus tiendas en línea, como árbol por tienda',
  newLabel: 'Nueva categoría',
  editLabel: 'Editar categoría',
  emptyMessage,
  noResultsMessage,
  columns: ['name', 'slug', 'parent', 'foreignLabelId', 'createdAt'],
  form: ['name', 'slug', 'country', 'parent', 'externalId', 'foreignLabelId'],
  fields: {
    parent: { label: 'Id de la categoría padre en la tienda', helperText: '0 para una categoría principal' },
    externalId: { label: 'Id en la tienda' },
    foreignLabelId: { label: 'Etiqueta relacionada' },
    country: { label: 'Tienda (país)' },
  },
  defaults: { parent: 0 },
  view: (context) => createElement(CategoryTreeView, { context, emptyMessage, noResultsMessage }),
});
