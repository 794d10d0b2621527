import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { CatalogActions } from './catalog-actions';

export const screen = defineScreen({
  resource: resources.catalogs,
  title: 'Catálogos',
  subtitle: 'Catálogos digitales con los productos que compartes con tus clientes',
  newLabel: 'Nuevo catálogo',
  editLabel: 'Editar catálogo',
  emptyMessage: 'Aún no hay catálogos',
  noResultsMessage: 'Ningún catálogo coincide con la búsqueda',
  columns: ['name', 'description', 'isDefault', 'productIds'],
  fields: { description: { widget: 'textarea' }, isDefault: { label: 'Catálogo predeterminado' }, productIds: { label: 'Productos' } },
  // see it as a customer, share its link, make it the default (decision 0031)
  rowActions: (row) => createElement(CatalogActions, { row }),
});
