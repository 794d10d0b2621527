import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.products,
  title: 'Productos',
  subtitle: 'Los productos de tu catálogo, con precio y stock',
  newLabel: 'Nuevo producto',
  editLabel: 'Editar producto',
  emptyMessage: 'Aún no hay productos registrados',
  noResultsMessage: 'Ningún producto coincide con la búsqueda',
  columns: ['name', 'sku', 'price', 'stock', 'brandId', 'categoryId', 'colorId'],
  form: ['name', 'sku', 'price', 'stock', 'brandId', 'categoryId', 'colorId', 'description', 'imageUrl'],
  fields: { price: { money: true }, brandId: { label: 'Marca' }, categoryId: { label: 'Categoría' }, colorId: { label: 'Color' } },
});
