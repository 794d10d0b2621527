import { botLanguageLabels, platformLabels, resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.bots,
  title: 'Bots',
  subtitle: 'Los bots de Dialogflow que responden en cada plataforma',
  newLabel: 'Nuevo bot',
  editLabel: 'Editar bot',
  emptyMessage: 'Aún no hay bots configurados',
  noResultsMessage: 'Ningún bot coincide con la búsqueda',
  columns: ['name', 'platform', 'language', 'active', 'credentials'],
  fields: {
    platform: { options: platformLabels },
    language: { options: botLanguageLabels },
    dialogflowProjectId: { label: 'Proyecto de Dialogflow' },
    active: { label: 'Activo' },
    credentials: {
      label: 'Cuenta de servicio de Google',
      fields: { client_email: { label: 'Correo de la cuenta de servicio' }, private_key: { label: 'Clave privada', widget: 'secret' } },
    },
  },
  defaults: { active: true },
});
