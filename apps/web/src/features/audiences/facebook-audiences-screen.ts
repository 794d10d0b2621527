import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { AudienceAccountPanel, AudienceFacebookCell, AudienceLastSendCell, AudienceMembersCell, AudienceRowActions } from './audience-parts';

/**
 * /facebook-audiencias (SPEC §2, decision 0048): the company's custom audiences with their state
 * at Facebook («Crear en Facebook» when they have no id there), how many people were sent, the
 * last send's live bar and counts, its history, and «Subir por etiquetas» (leads or clean leads,
 * «solo los que faltan»). Above the list: the Meta ad account they live in.
 */
export const screen = defineScreen({
  resource: resources['facebook-audiences'],
  title: 'Audiencias de Facebook',
  subtitle: 'Públicos personalizados de Facebook que llenas con tus leads por etiquetas',
  newLabel: 'Nueva audiencia',
  editLabel: 'Editar audiencia',
  emptyMessage: 'Aún no hay audiencias de Facebook. Crea una con «Nueva audiencia» y súbele tus leads por etiquetas: se crea en tu cuenta publicitaria al primer envío.',
  noResultsMessage: 'Ninguna audiencia coincide con la búsqueda',
  columns: [
    'name',
    {
      field: 'facebookAudienceId',
      label: 'En Facebook',
      hideOnMobile: true,
      render: (row) => createElement(AudienceFacebookCell, { row }),
    },
    {
      field: 'members',
      label: 'Personas',
      hideOnMobile: true,
      render: (row) => createElement(AudienceMembersCell, { row }),
    },
    // on a phone: the name and the last send's bar (the rest is in its history)
    {
      field: 'lastSend',
      label: 'Último envío',
      hideOnMobile: false,
      render: (row) => createElement(AudienceLastSendCell, { row }),
    },
  ],
  form: ['name', 'description', 'facebookAudienceId'],
  fields: {
    facebookAudienceId: {
      label: 'Id en Facebook',
      helperText: 'Déjalo vacío: se crea en tu cuenta publicitaria al primer envío. Escríbelo solo si la audiencia ya existe en Facebook',
    },
    description: { widget: 'textarea' },
  },
  rowActions: (row) => createElement(AudienceRowActions, { row }),
  panel: () => createElement(AudienceAccountPanel),
});
