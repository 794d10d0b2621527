import { platformLabels, resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { AgentUser, AgentWorkload, AutoAssignButton, ReassignAction } from './agent-extras';

/**
 * /agentes (decision 0025): each agent is a user of the company (what is assigned to the agent
 * shows in that person's «Mías»), active or not, available or away, with the channels they
 * answer; the list shows what each one holds, offers an inactive agent's work for reassignment,
 * and the search row opens the automatic assignment.
 */
export const screen = defineScreen({
  resource: resources.agentes,
  title: 'Agentes',
  subtitle: 'Quienes atienden los chats y hacen seguimiento a los leads',
  newLabel: 'Nuevo agente',
  editLabel: 'Editar agente',
  emptyMessage: 'Aún no hay agentes registrados',
  noResultsMessage: 'Ningún agente coincide con la búsqueda',
  columns: [
    'name',
    { field: 'userId', label: 'Usuario', render: (row) => createElement(AgentUser, { userId: row.userId }) },
    { field: 'active', label: 'Activo' },
    { field: 'available', label: 'Disponible' },
    { field: 'workload', label: 'Asignados', render: (row) => createElement(AgentWorkload, { agent: row }) },
    { field: 'email', hideOnMobile: true },
    { field: 'equipoDeVentasId', hideOnMobile: true },
    { field: 'platforms', label: 'Canales', hideOnMobile: true },
  ],
  form: ['name', 'userId', 'email', 'phone', 'equipoDeVentasId', 'active', 'available', 'platforms'],
  fields: {
    userId: {
      label: 'Usuario',
      refs: ['users'],
      helperText: 'La persona que entra como este agente: lo que se le asigna aparece en su bandeja «Mías»',
    },
    phone: { helperText: 'Con código de país, por ejemplo 51987654321' },
    equipoDeVentasId: { label: 'Equipo de ventas' },
    active: { label: 'Activo (se le pueden asignar chats y leads)' },
    available: { label: 'Disponible (recibe chats nuevos por asignación automática)' },
    platforms: { label: 'Canales que atiende', options: platformLabels, helperText: 'Sin canales: atiende todos' },
  },
  defaults: { active: true },
  toolbar: () => createElement(AutoAssignButton),
  rowActions: (row) => createElement(ReassignAction, { agent: row }),
});
