import { resources, templateDeliveryStatusLabels } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['template-messages-logs'],
  title: 'Historial de plantillas',
  subtitle: 'Cada mensaje de plantilla enviado y su estado de entrega',
  newLabel: 'Nuevo registro',
  editLabel: 'Editar registro',
  emptyMessage: 'Aún no se enviaron mensajes de plantilla',
  noResultsMessage: 'Ningún envío coincide con la búsqueda',
  columns: ['templateName', 'telefono', 'status', 'error', 'createdAt'],
  displayField: 'templateName',
  fields: {
    templateName: { label: 'Plantilla' },
    status: { options: templateDeliveryStatusLabels },
    error: { label: 'Error' },
    leadId: { label: 'Lead' },
  },
});
