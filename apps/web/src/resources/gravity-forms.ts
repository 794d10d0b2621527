import { resources } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources['gravity-forms'],
  title: 'Gravity Forms',
  subtitle: 'Formularios de tu sitio cuyos envíos llegan como leads',
  newLabel: 'Nuevo formulario',
  editLabel: 'Editar formulario',
  emptyMessage: 'Aún no hay formularios conectados',
  noResultsMessage: 'Ningún formulario coincide con la búsqueda',
  columns: ['name', 'formId', 'siteUrl', 'mostradorLabelIds'],
  fields: {
    formId: { label: 'Id del formulario' },
    siteUrl: { label: 'URL del sitio' },
    mostradorLabelIds: { label: 'Etiquetas Mostrador', helperText: 'Se asignan a los leads de este formulario' },
  },
});
