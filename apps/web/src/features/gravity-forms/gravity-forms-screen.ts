import { resources } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { GravityEntriesPanel, GravityFormState, GravityFormSummary } from './form-extras';

/**
 * /gravity-forms (issue 15, decision 0050): the WordPress forms whose entries become leads. Each
 * row: «Probar conexión» (what is wrong, in Spanish), «Campos» (which field is the name, phone,
 * e-mail and message), «Webhook» (the URL and its secret, shown once) and «Sincronizar entradas»
 * with its progress; above the list, the newest entries with the lead each made or why not.
 */
export const screen = defineScreen({
  resource: resources['gravity-forms'],
  title: 'Gravity Forms',
  subtitle: 'Formularios de tu sitio cuyos envíos llegan como leads',
  newLabel: 'Nuevo formulario',
  editLabel: 'Editar formulario',
  emptyMessage: 'Aún no hay formularios conectados. Agrega uno con «Nuevo formulario»: la URL del sitio, el id del formulario y unas claves de la API REST de Gravity Forms.',
  noResultsMessage: 'Ningún formulario coincide con la búsqueda',
  columns: [
    { field: 'name', label: 'Formulario', render: (row) => createElement(GravityFormSummary, { form: row }) },
    { field: 'state', label: 'Estado', render: (row) => createElement(GravityFormState, { form: row }) },
    { field: 'mostradorLabelIds', label: 'Etiquetas de los leads', hideOnMobile: true },
  ],
  form: ['name', 'siteUrl', 'formId', 'consumerKey', 'consumerSecret', 'mostradorLabelIds'],
  fields: {
    formId: { label: 'Id del formulario', helperText: 'La columna ID de Formularios en WordPress' },
    siteUrl: { label: 'URL del sitio', placeholder: 'https://misitio.com', helperText: 'La dirección del WordPress, sin /wp-json' },
    consumerKey: { label: 'Consumer key', placeholder: 'ck_…', helperText: 'Formularios › Ajustes › API REST › Añadir clave (permiso de lectura)' },
    consumerSecret: { label: 'Consumer secret', placeholder: 'cs_…' },
    mostradorLabelIds: { label: 'Etiquetas Mostrador', helperText: 'Se asignan a los leads de este formulario' },
  },
  panel: () => createElement(GravityEntriesPanel),
});
