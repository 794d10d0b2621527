import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources['equipos-de-ventas'],
  title: 'Equipos de ventas',
  subtitle: 'Los equipos a los que pertenecen tus agentes',
  newLabel: 'Nuevo equipo de ventas',
  editLabel: 'Editar equipo de ventas',
  emptyMessage: 'Aún no hay equipos de ventas',
  noResultsMessage: 'Ningún equipo de ventas coincide con la búsqueda',
  columns: ['name', 'description'],
  fields: { description: { widget: 'textarea' } },
});
