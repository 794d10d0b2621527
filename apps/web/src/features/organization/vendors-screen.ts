import { resources, vendorSourceLabels } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.vendors,
  title: 'Vendedores',
  subtitle: 'Vendedores sincronizados desde tus sistemas',
  newLabel: 'Nuevo vendedor',
  editLabel: 'Editar vendedor',
  emptyMessage: 'Aún no hay vendedores',
  noResultsMessage: 'Ningún vendedor coincide con la búsqueda',
  columns: ['name', 'code', 'email', 'phone', 'source'],
  fields: { code: { label: 'Código' }, source: { label: 'Origen', options: vendorSourceLabels } },
});
