import { resources, templateCategoryLabels, templateLanguageLabels, templateStatusLabels } from '@mostrador/contract';
import { defineScreen } from '../components/crud/types';

export const screen = defineScreen({
  resource: resources.imagina_template_messages,
  title: 'Mensajes de plantilla Imagina',
  subtitle: 'Plantillas de WhatsApp para enviar mensajes individuales, en lote o masivos',
  newLabel: 'Nueva plantilla',
  editLabel: 'Editar plantilla',
  emptyMessage: 'Aún no hay mensajes de plantilla',
  noResultsMessage: 'Ninguna plantilla coincide con la búsqueda',
  columns: ['name', 'language', 'category', 'status'],
  fields: {
    name: { helperText: 'Minúsculas, números y guiones bajos, como bienvenida_cliente' },
    language: { options: templateLanguageLabels },
    category: { label: 'Categoría', options: templateCategoryLabels },
    body: { label: 'Texto', widget: 'textarea' },
    status: { options: templateStatusLabels },
  },
});
