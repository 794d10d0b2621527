import { resources, templateCategoryLabels, templateLanguageLabels, templateStatusLabels } from '@mostrador/contract';
import { createElement } from 'react';
import { defineScreen } from '../../components/crud/types';
import { ImaginaBodyInput, ImaginaExplainer, ImaginaSendAction, LinkedTemplateSelect } from './imagina-fields';

/**
 * /imagina_mensajes_de_plantilla (decision 0043): the company's own messages with the
 * customer's data as variables; the form inserts each variable and previews the message with
 * a lead's values, links an approved WhatsApp template of the same language for people outside
 * the 24-hour window; «Enviar» opens the massive messages' composer with the template chosen.
 */
export const screen = defineScreen({
  resource: resources.imagina_template_messages,
  title: 'Plantillas Imagina',
  subtitle: 'Tus propios mensajes con los datos de cada cliente, para enviar desde el chat o en envíos masivos',
  newLabel: 'Nueva plantilla',
  editLabel: 'Editar plantilla',
  emptyMessage: 'Aún no hay plantillas Imagina: crea la primera con «Nueva plantilla»',
  noResultsMessage: 'Ninguna plantilla coincide con la búsqueda',
  columns: ['name', 'status', 'language', 'category', { field: 'whatsappTemplate', label: 'Plantilla de WhatsApp', render: (row) => (typeof row.whatsappTemplate === 'string' && row.whatsappTemplate) || '—' }],
  form: ['name', 'language', 'category', 'body', 'whatsappTemplate', 'status'],
  fields: {
    name: { helperText: 'Minúsculas, números y guiones bajos, como bienvenida_cliente' },
    language: { options: templateLanguageLabels },
    category: { label: 'Categoría', options: templateCategoryLabels, helperText: 'La de la plantilla de WhatsApp vinculada: define lo que cobra Meta fuera de las 24 horas' },
    body: { label: 'Mensaje', input: (props) => createElement(ImaginaBodyInput, props) },
    whatsappTemplate: { label: 'Plantilla de WhatsApp', input: (props) => createElement(LinkedTemplateSelect, props) },
    status: { label: 'Estado', options: templateStatusLabels, helperText: 'Solo las aprobadas se pueden enviar; un borrador no sale' },
  },
  defaults: { language: 'es_PE', category: 'MARKETING', status: 'draft' },
  panel: () => createElement(ImaginaExplainer),
  rowActions: (row) => createElement(ImaginaSendAction, { row }),
});
