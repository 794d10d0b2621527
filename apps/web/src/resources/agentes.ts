import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.agentes,
  title: 'Agentes',
  subtitle: 'Quienes atienden los chats y hacen seguimiento a los leads',
  newLabel: 'Nuevo agente',
  editLabel: 'Editar agente',
  emptyMessage: 'Aún no hay agentes registrados',
  noResultsMessage: 'Ningún agente coincide con la búsqueda',
  columns: ['name', 'email', 'phone', 'equipoDeVentasId', { field: 'active', label: 'Activo' }],
  form: ['name', 'email', 'phone', 'equipoDeVentasId', 'active'],
  fields: {
    phone: { helperText: 'Con código de país, por ejemplo 51987654321' },
    equipoDeVentasId: { label: 'Equipo de ventas' },
    active: { label: 'Activo (recibe nuevos leads)' },
  },
  defaults: { active: true },
});
