import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/**
 * /etiquetas-y-agentes (decision 0054): the chat groups, read as routes — a lead or person
 * nobody holds that gets one of a group's labels goes to one of its agents (the database does it
 * on every path that labels). The inbox's «Grupo» filter uses the same groups.
 */
export const screen = defineScreen({
  resource: resources.chat_groups,
  title: 'Etiquetas y agentes',
  subtitle: 'Un lead sin agente que recibe una de estas etiquetas pasa a uno de sus agentes (primero los disponibles)',
  newLabel: 'Nueva ruta de etiquetas',
  editLabel: 'Editar ruta de etiquetas',
  emptyMessage: 'Aún no hay etiquetas asignadas a agentes: crea una ruta para que los leads etiquetados lleguen solos a su agente',
  noResultsMessage: 'Ninguna ruta coincide con la búsqueda',
  // on a phone: the route and who receives it (the labels are in its name and its form)
  columns: ['name', { field: 'mostradorLabelIds', hideOnMobile: true }, { field: 'agenteIds', hideOnMobile: false }, 'color'],
  fields: {
    name: { label: 'Nombre de la ruta' },
    mostradorLabelIds: { label: 'Etiquetas' },
    agenteIds: { label: 'Agentes que las reciben' },
  },
});
