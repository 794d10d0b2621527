import Outbox from '@mui/icons-material/Outbox';
import { campaignStatusLabels, platformLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources['marketing-campaigns'],
  title: 'Campañas',
  subtitle: 'Envíos de plantillas a un segmento, por bloques',
  newLabel: 'Nueva campaña',
  editLabel: 'Editar campaña',
  emptyMessage: 'Aún no hay campañas',
  noResultsMessage: 'Ninguna campaña coincide con la búsqueda',
  columns: ['name', 'segmentId', 'channel', 'status', 'scheduledAt'],
  fields: {
    segmentId: { label: 'Segmento' },
    channel: { label: 'Canal', options: { ...platformLabels, mailchimp: 'Mailchimp' } },
    templateName: { label: 'Plantilla' },
    message: { widget: 'textarea' },
    chunkSize: { label: 'Tamaño del bloque', helperText: 'Mensajes por bloque, hasta 1000' },
    scheduledAt: { label: 'Programada para', widget: 'datetime' },
    status: { options: campaignStatusLabels },
  },
  defaults: { status: 'pending', chunkSize: 100 },
  // its chunks: send, program, stop, resume, retry and each recipient's outcome
  detail: { label: 'Ver envíos', path: (row) => `/marketing/campaigns/${row._id}`, icon: Outbox },
});
