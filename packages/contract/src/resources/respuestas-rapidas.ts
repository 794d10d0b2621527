import { z } from 'zod';
import { defineResource } from '../define-resource.js';
import { formMessages } from '../messages-es.js';
import { requiredOr, zText } from '../fields.js';

/** A shortcut as typed after "/" in the chat composer: lower-case letters, digits and hyphens. */
const zShortcut = () =>
  z
    .string({ error: requiredOr(formMessages.invalid) })
    .trim()
    .toLowerCase()
    .min(1, formMessages.required)
    .max(30, formMessages.tooLong)
    .regex(/^[a-z0-9ñ]+(?:-[a-z0-9ñ]+)*$/, 'Solo letras minúsculas, números y guiones, sin espacios ni «/» (por ejemplo envio-gratis)');

/**
 * respuestas-rapidas (issue 11, decision 0028; not in the spec): saved answers an agent
 * types with "/" in the chat composer — a shortcut (unique in the company) and the text,
 * which may carry {{nombre}}, {{telefono}} and {{agente}} (filled when inserted). Managed by
 * admins and supervisors (module messaging); agents list and use them.
 */
export const respuestasRapidas = defineResource({
  key: 'respuestas-rapidas',
  label: 'Respuesta rápida',
  labelPlural: 'Respuestas rápidas',
  module: 'messaging',
  fields: {
    atajo: zShortcut(),
    texto: zText(4096),
  },
  defaultSort: { field: 'atajo', order: 'asc' },
  searchable: ['atajo', 'texto'],
  sortable: ['atajo'],
  unique: ['atajo'],
  examples: [
    { atajo: 'saludo', texto: '¡Hola {{nombre}}! Soy {{agente}} de Mostrador. ¿En qué te puedo ayudar?' },
    { atajo: 'delivery', texto: 'Hacemos delivery de lunes a sábado. El envío cuesta S/ 8 y es gratis desde S/ 120 🚚' },
    { atajo: 'horario', texto: 'Atendemos de lunes a sábado de 9 a. m. a 6 p. m.; los domingos solo pedidos por WhatsApp, de 10 a. m. a 2 p. m.' },
    { atajo: 'pagos', texto: 'Aceptamos Yape, Plin, transferencia y tarjeta contra entrega.' },
    { atajo: 'gracias', texto: '¡Gracias por tu compra, {{nombre}}! Cualquier consulta, escríbenos a este chat.' },
  ],
});
