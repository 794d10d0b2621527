import { z } from 'zod';
import { consultationMotives, sentiments } from './analysis.js';
import { platforms } from './constants.js';
import type { DomainEventType } from './domain-events.js';
import { zId } from './fields.js';
import { formMessages } from './messages-es.js';
import { orderStatuses } from './order-labels.js';
import { countryCodes } from './phone.js';
import { leadStatuses } from './resources/leads.js';

/**
 * Automation rules (issue 29, decision 0077): **when** an event of the spine happens, **if** all
 * (or any) of its conditions hold for the chat it concerns, **then** its actions run, as the rule
 * (the actor of what they change). Declared here once: the server evaluates and validates from
 * these tables, the editor renders its selects from them. Under /api (module `automation`):
 *
 *   POST   /automation-rules                 automationRuleIn → 201 the rule
 *   GET    /automation-rules                 the company's rules in their order, with runs today
 *   GET    /automation-rules/{id}            one
 *   PUT    /automation-rules/{id}            automationRuleIn (whole)
 *   DELETE /automation-rules/{id}
 *   GET    /automation-rules/{id}/runs       newest first: the event, each condition as evaluated, each action's result
 *   POST   /automation-rules/{id}/test       {chatId} → what would happen now, without doing it
 *   GET    /automation-rules/settings        the company's settings (the per-chat hourly cap of rule messages)
 *   PUT    /automation-rules/settings        automationSettingsIn → the settings
 */

/** The spine's events a rule can start from, and how the editor names them. */
export const automationTriggerLabels = {
  'message.received': 'Un cliente escribe',
  'chat.created': 'Empieza un chat nuevo',
  'chat.assigned': 'Se asigna un chat',
  'chat.resolved': 'Se resuelve un chat',
  'chat.reopened': 'Se reabre un chat',
  'lead.status_changed': 'Cambia el estado de un lead',
  'lead.labelled': 'Se etiqueta un lead',
  'order.created': 'Se hace un pedido',
  'order.status_changed': 'Cambia el estado de un pedido',
} as const satisfies Partial<Record<DomainEventType, string>>;
export type AutomationTrigger = keyof typeof automationTriggerLabels;
export const automationTriggers = Object.keys(automationTriggerLabels) as [AutomationTrigger, ...AutomationTrigger[]];

/**
 * Timers a rule can start from (decision 0077): set and cancelled by the spine's events, fired
 * within a minute of their time, once. `minutes` is how long; `status` the order's, for
 * order_status_age.
 */
export const automationTimerLabels = {
  no_customer_reply: 'El cliente no responde al último mensaje que le enviaron',
  window_closing: 'Se va a cerrar la ventana de 24 horas',
  no_agent_reply: 'Nadie responde al cliente',
  no_activity: 'El chat no tiene actividad',
  order_status_age: 'Un pedido sigue en un estado',
} as const;
export type AutomationTimerKind = keyof typeof automationTimerLabels;
export const automationTimerKinds = Object.keys(automationTimerLabels) as [AutomationTimerKind, ...AutomationTimerKind[]];
/** How a timer's time reads in the editor: «N minutos después de …», «N minutos antes de …». */
export const automationTimerHints: Record<AutomationTimerKind, string> = {
  no_customer_reply: 'después del último mensaje enviado al cliente (se cancela si el cliente escribe)',
  window_closing: 'antes de que se cierre la ventana (se reinicia con cada mensaje del cliente)',
  no_agent_reply: 'después de que el cliente escribió sin respuesta de una persona (se cancela cuando alguien responde)',
  no_activity: 'después del último mensaje del chat, de cualquiera (se reinicia con cada mensaje)',
  order_status_age: 'después de que el pedido pasó al estado elegido (se cancela si cambia de estado)',
};
/** The longest timer: 90 days. */
export const AUTOMATION_TIMER_MAX_MINUTES = 129_600;

export const conditionOpLabels = {
  is: 'es',
  is_not: 'no es',
  contains: 'contiene',
  not_contains: 'no contiene',
  matches: 'coincide con la expresión',
  has: 'tiene',
  has_not: 'no tiene',
  none: 'no tiene ninguno',
  any: 'tiene alguno',
  gt: 'más de',
  lt: 'menos de',
} as const;
export type ConditionOp = keyof typeof conditionOpLabels;

/** What a condition's value is: it tells the server how to check it and the editor which input to show. */
export type ConditionValueKind =
  | 'platform'
  | 'text'
  | 'boolean'
  | 'label'
  | 'leadStatus'
  | 'agent'
  | 'orderStatus'
  | 'phone'
  | 'number'
  | 'team'
  | 'sentiment'
  | 'motive'
  | 'country'
  | 'none';

interface ConditionDef {
  label: string;
  ops: readonly ConditionOp[];
  value: ConditionValueKind;
}

/** The conditions a rule may ask, about the chat the event concerns (its lead, its last message, its order). */
export const conditionFields = {
  channel: { label: 'Canal', ops: ['is', 'is_not'], value: 'platform' },
  text: { label: 'Texto del mensaje', ops: ['contains', 'not_contains', 'matches'], value: 'text' },
  first_message: { label: 'Primer mensaje de la persona', ops: ['is'], value: 'boolean' },
  label: { label: 'Etiqueta del lead', ops: ['has', 'has_not'], value: 'label' },
  lead_status: { label: 'Estado del lead', ops: ['is', 'is_not'], value: 'leadStatus' },
  agent: { label: 'Agente asignado', ops: ['is', 'is_not', 'none', 'any'], value: 'agent' },
  line: { label: 'Línea de WhatsApp', ops: ['is', 'is_not'], value: 'phone' },
  window_open: { label: 'Ventana de 24 horas abierta', ops: ['is'], value: 'boolean' },
  referral: { label: 'Llegó por un anuncio', ops: ['is'], value: 'boolean' },
  order_status: { label: 'Estado del pedido', ops: ['is', 'is_not'], value: 'orderStatus' },
  minutes_since_customer: { label: 'Minutos desde que escribió el cliente', ops: ['gt', 'lt'], value: 'number' },
  business_hours: { label: 'Dentro del horario de atención', ops: ['is'], value: 'boolean' },
  /** The assigned agent's sales team (agentes.equipoDeVentasId); `none`: no team, or no agent. */
  team: { label: 'Equipo de ventas del agente', ops: ['is', 'is_not', 'none'], value: 'team' },
  /** The chat's latest AI analysis (analysis.ts): its sentiment, its motive. */
  sentiment: { label: 'Sentimiento del último análisis', ops: ['is', 'is_not'], value: 'sentiment' },
  /** `is` a motive of analysis.ts; `contains` words of its code or its Spanish label, accents and case aside. */
  motive: { label: 'Motivo del último análisis', ops: ['is', 'contains'], value: 'motive' },
  /** The person's country, from the dialling code of the lead's phone (phone.ts countryOfPhone). */
  country: { label: 'País de la persona (por su teléfono)', ops: ['is', 'is_not'], value: 'country' },
} as const satisfies Record<string, ConditionDef>;
export type ConditionField = keyof typeof conditionFields;
export const conditionFieldNames = Object.keys(conditionFields) as [ConditionField, ...ConditionField[]];
/** Ops that take no value (agent none / any). */
export const valuelessOps: readonly ConditionOp[] = ['none', 'any'];

/** The actions a rule may take, in the editor's order. */
export const automationActionLabels = {
  add_label: 'Agregar una etiqueta',
  remove_label: 'Quitar una etiqueta',
  assign_agent: 'Asignar a un agente',
  assign_team: 'Asignar a un agente disponible de un equipo',
  assign_round_robin: 'Asignar por turnos a un agente disponible',
  unassign: 'Quitar el agente',
  set_lead_status: 'Cambiar el estado del lead',
  send_text: 'Enviar un texto',
  send_template: 'Enviar una plantilla de WhatsApp',
  send_imagina: 'Enviar una plantilla Imagina',
  reply_products: 'Responder con productos del catálogo',
  note: 'Dejar una nota interna',
  notify_agent: 'Avisar al agente asignado',
  resolve: 'Resolver el chat',
  snooze: 'Posponer el chat',
  webhook: 'Llamar a un webhook',
  wait: 'Esperar y luego seguir',
} as const;
export type AutomationActionType = keyof typeof automationActionLabels;

/** What a template's values may name of the chat, replaced when the rule runs. */
export const automationPlaceholders = {
  '{nombre}': 'el nombre del contacto',
  '{telefono}': 'su teléfono',
  '{empresa}': 'el nombre de la compañía',
  '{pedido}': 'el código del pedido',
  '{estado}': 'el estado del pedido',
} as const;

/** How many rules one change may set off one after another (a rule's change starting another, and so on). */
export const AUTOMATION_MAX_DEPTH = 3;
/**
 * Messages rules may send in one chat in an hour (the rest are refused and logged in the run):
 * the company's setting (`automation_settings`, 1–100), this when it saved none.
 */
export const AUTOMATION_MESSAGES_PER_CHAT_HOUR = 10;
export const AUTOMATION_MESSAGES_PER_CHAT_HOUR_MAX = 100;
export const AUTOMATION_MAX_CONDITIONS = 20;
export const AUTOMATION_MAX_ACTIONS = 10;

export const automationMessages = {
  opForField: 'Esa comparación no sirve para esa condición',
  valueRequired: 'Indica el valor de la condición',
  badRegex: 'La expresión no es válida',
  unknownLabel: 'Esa etiqueta no es de esta compañía',
  unknownAgent: 'Ese agente no es de esta compañía',
  unknownPhone: 'Esa línea no es de esta compañía',
  unknownTemplate: 'Esa plantilla no es de esta compañía',
  unknownTeam: 'Ese equipo de ventas no es de esta compañía',
  chainCut: `Se cortó la cadena: ya iban ${AUTOMATION_MAX_DEPTH} reglas seguidas`,
  /** The company's cap (its setting) in the words. */
  tooManyMessages: (n: number) => `Esta conversación ya recibió ${n === 1 ? '1 mensaje' : `${n} mensajes`} de reglas en la última hora: el máximo de la compañía es ${n}`,
  windowClosed: 'La ventana de 24 horas está cerrada: fuera de ella solo se envían plantillas',
  noChat: 'El evento no tiene un chat en el que actuar',
  noAgent: 'El chat no tiene un agente asignado con usuario a quien avisar',
} as const;

const text = (max: number) => z.string({ error: formMessages.invalid }).trim().min(1, formMessages.required).max(max, formMessages.tooLong);

const conditionValue = z.union([z.string().max(500, formMessages.tooLong), z.number().finite(), z.boolean()]).optional();

export const automationCondition = z
  .object({
    field: z.enum(conditionFieldNames, { error: 'Esa condición no existe' }),
    op: z.enum(Object.keys(conditionOpLabels) as [ConditionOp, ...ConditionOp[]], { error: 'Esa comparación no existe' }),
    value: conditionValue,
  })
  .superRefine((c, ctx) => {
    const def: ConditionDef = conditionFields[c.field];
    if (!def.ops.includes(c.op)) {
      ctx.addIssue({ code: 'custom', path: ['op'], message: automationMessages.opForField });
      return;
    }
    if (valuelessOps.includes(c.op)) return;
    const v = c.value;
    const fail = (message: string = automationMessages.valueRequired) => ctx.addIssue({ code: 'custom', path: ['value'], message });
    switch (def.value) {
      case 'boolean':
        if (typeof v !== 'boolean') fail();
        return;
      case 'number':
        if (typeof v !== 'number' || v < 0 || v > 525_600) fail('Indica un número de minutos entre 0 y 525600');
        return;
      case 'platform':
        if (typeof v !== 'string' || !(platforms as readonly string[]).includes(v)) fail(formMessages.option);
        return;
      case 'leadStatus':
        if (typeof v !== 'string' || !(leadStatuses as readonly string[]).includes(v)) fail(formMessages.option);
        return;
      case 'orderStatus':
        if (typeof v !== 'string' || !(orderStatuses as readonly string[]).includes(v)) fail(formMessages.option);
        return;
      case 'label':
      case 'agent':
      case 'phone':
      case 'team':
        if (typeof v !== 'string' || !z.uuid().safeParse(v).success) fail();
        return;
      case 'sentiment':
        if (typeof v !== 'string' || !(sentiments as readonly string[]).includes(v)) fail(formMessages.option);
        return;
      case 'country':
        if (typeof v !== 'string' || !(countryCodes as readonly string[]).includes(v)) fail(formMessages.option);
        return;
      case 'motive':
        if (c.op === 'is') {
          if (typeof v !== 'string' || !(consultationMotives as readonly string[]).includes(v)) fail(formMessages.option);
        } else if (typeof v !== 'string' || !v.trim()) fail();
        return;
      default:
        if (typeof v !== 'string' || !v.trim()) return fail();
        if (c.op === 'matches') {
          try {
            new RegExp(v, 'iu');
          } catch {
            fail(automationMessages.badRegex);
          }
        }
    }
  });
export type AutomationCondition = z.infer<typeof automationCondition>;

/** What the assignment and Imagina actions answer, in Spanish (their ids checked, their refusals kept in the run). */
export const automationActionMessages = {
  unknownTeam: automationMessages.unknownTeam,
  unknownImagina: 'Esa plantilla Imagina no es de esta compañía',
  noTeamAgent: (team: string) => `No hay agentes disponibles en el equipo «${team}»: nadie activo y «Disponible»`,
  noAgentAvailable: 'No hay agentes disponibles en la compañía: nadie activo y «Disponible»',
  teamGone: 'El equipo de ventas ya no existe',
  imaginaGone: 'La plantilla Imagina ya no existe',
  imaginaDraft: (name: string) => `La plantilla Imagina «${name}» no está aprobada: apruébala para que la regla la envíe`,
  imaginaMissing: (variable: string, what?: string) => `Falta el valor de {{${variable}}}${what ? ` (${what})` : ''}: la plantilla no se envió`,
  waitLast: 'Después de esperar, agrega la acción que sigue',
  waitDisabled: 'La regla se desactivó mientras esperaba: no siguió',
  waitResumed: 'Siguió tras la espera',
  noWords: 'La regla no se activó con un mensaje del cliente: no hay qué responder',
  noProducts: 'El mensaje no nombra productos del catálogo con stock: no se respondió',
} as const;

export const automationAction = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('add_label'), labelId: zId() }),
    z.object({ type: z.literal('remove_label'), labelId: zId() }),
    z.object({ type: z.literal('assign_agent'), agentId: zId() }),
    z.object({ type: z.literal('unassign') }),
    /** The next available agent of the sales team, by the automatic assignment's turn (decision 0025). */
    z.object({ type: z.literal('assign_team'), teamId: zId() }),
    /** The next available agent of the company, by the same turn. */
    z.object({ type: z.literal('assign_round_robin') }),
    z.object({ type: z.literal('set_lead_status'), status: z.enum(leadStatuses, { error: formMessages.option }) }),
    z.object({ type: z.literal('send_text'), text: text(4096) }),
    z.object({
      type: z.literal('send_template'),
      templateId: zId(),
      /** The body's values, {{1}} first; each may name the chat's data: {nombre}, {telefono}, {empresa}, {pedido}, {estado}. */
      bodyValues: z.array(z.string({ error: formMessages.invalid }).trim().max(1024, formMessages.tooLong)).max(30, formMessages.tooLong).default([]),
      headerValue: z.string({ error: formMessages.invalid }).trim().max(60, formMessages.tooLong).optional(),
    }),
    /** An approved Imagina template as a text (inside the 24-hour window), its {{nombre}}… filled from the chat's person. */
    z.object({ type: z.literal('send_imagina'), templateId: zId() }),
    /** The reply assistant's draft of the customer's message (its catalogue products, price and stock), sent by itself: the auto-reply (decision 0087). */
    z.object({ type: z.literal('reply_products') }),
    z.object({ type: z.literal('note'), text: text(4000) }),
    z.object({ type: z.literal('notify_agent'), text: text(500) }),
    z.object({ type: z.literal('resolve') }),
    z.object({ type: z.literal('snooze'), minutes: z.number({ error: formMessages.invalid }).int().min(1, 'Al menos 1 minuto').max(43_200, 'Como mucho 30 días') }),
    z.object({ type: z.literal('webhook'), url: z.url({ error: 'La dirección no es válida' }).max(2000, formMessages.tooLong) }),
    /** Waits, then goes on with the actions after it (the conditions are not judged again). */
    z.object({ type: z.literal('wait'), minutes: z.number({ error: formMessages.invalid }).int().min(1, 'Al menos 1 minuto').max(43_200, 'Como mucho 30 días') }),
  ],
  { error: 'Esa acción no existe' },
);
export type AutomationAction = z.infer<typeof automationAction>;

const eventTrigger = z.object({ event: z.enum(automationTriggers, { error: 'Elige cuándo se activa la regla' }) }).strict();
const timerTrigger = z
  .object({
    timer: z
      .object({
        kind: z.enum(automationTimerKinds, { error: 'Elige qué espera el temporizador' }),
        minutes: z
          .number({ error: 'Indica cuántos minutos' })
          .int('Indica minutos enteros')
          .min(1, 'Al menos 1 minuto')
          .max(AUTOMATION_TIMER_MAX_MINUTES, 'Como mucho 90 días'),
        status: z.enum(orderStatuses, { error: formMessages.option }).optional(),
      })
      .superRefine((t, ctx) => {
        if (t.kind === 'order_status_age' && !t.status) ctx.addIssue({ code: 'custom', path: ['status'], message: 'Elige el estado del pedido' });
        if (t.kind === 'window_closing' && t.minutes >= 24 * 60) ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'La ventana dura 24 horas: elige menos de 1440 minutos' });
      }),
  })
  .strict();
export const automationTrigger = z.union([eventTrigger, timerTrigger], { error: 'Elige cuándo se activa la regla' });
export type AutomationTriggerIn = z.infer<typeof automationTrigger>;

export const automationRuleIn = z.object({
  name: text(120),
  enabled: z.boolean({ error: formMessages.invalid }).default(true),
  trigger: automationTrigger,
  match: z.enum(['all', 'any'], { error: formMessages.option }).default('all'),
  conditions: z.array(automationCondition).max(AUTOMATION_MAX_CONDITIONS, `Como mucho ${AUTOMATION_MAX_CONDITIONS} condiciones`).default([]),
  actions: z
    .array(automationAction)
    .min(1, 'Agrega al menos una acción')
    .max(AUTOMATION_MAX_ACTIONS, `Como mucho ${AUTOMATION_MAX_ACTIONS} acciones`)
    .superRefine((list, ctx) => {
      if (list.at(-1)?.type === 'wait') ctx.addIssue({ code: 'custom', path: [list.length - 1, 'type'], message: automationActionMessages.waitLast });
    }),
});
export type AutomationRuleIn = z.input<typeof automationRuleIn>;

export const automationRuleOut = z.object({
  _id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  position: z.number(),
  trigger: automationTrigger,
  match: z.enum(['all', 'any']),
  conditions: z.array(z.object({ field: z.enum(conditionFieldNames), op: z.string(), value: conditionValue })),
  actions: z.array(z.record(z.string(), z.unknown())),
  lastRunAt: z.string().nullable(),
  runsToday: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AutomationRuleOut = z.infer<typeof automationRuleOut>;
export const automationRuleList = z.object({ payload: z.array(automationRuleOut) });

/** `waiting`: a «Esperar y luego seguir» holds the rest of its actions until its time. */
export const automationRunStatuses = ['running', 'waiting', 'ok', 'error', 'skipped'] as const;
export const automationRunStatusLabels: Record<(typeof automationRunStatuses)[number], string> = {
  running: 'En curso',
  waiting: 'En espera',
  ok: 'Hecha',
  error: 'Con errores',
  skipped: 'Omitida',
};

const evaluated = z.object({ field: z.string(), op: z.string(), value: conditionValue, actual: z.unknown().optional(), passed: z.boolean() });
const acted = z.object({ type: z.string(), ok: z.boolean(), detail: z.string().optional() });

export const automationRunOut = z.object({
  _id: z.string(),
  ruleId: z.string(),
  eventId: z.string().nullable(),
  eventType: z.string(),
  chatId: z.string().nullable(),
  status: z.enum(automationRunStatuses),
  depth: z.number(),
  conditions: z.array(evaluated),
  actions: z.array(acted),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type AutomationRunOut = z.infer<typeof automationRunOut>;
export const automationRunList = z.object({ payload: z.array(automationRunOut) });

/** The company's automation settings (decision 0080): how many messages rules may send per chat and hour. */
export const automationSettingsLabels = {
  messagesPerChatHour: 'Mensajes de reglas por chat y hora',
} as const;
export const automationSettingsIn = z.object({
  messagesPerChatHour: z
    .number({ error: 'Indica cuántos mensajes' })
    .int('Indica un número entero de mensajes')
    .min(1, 'Al menos 1 mensaje')
    .max(AUTOMATION_MESSAGES_PER_CHAT_HOUR_MAX, `Como mucho ${AUTOMATION_MESSAGES_PER_CHAT_HOUR_MAX} mensajes`),
});
export type AutomationSettingsIn = z.infer<typeof automationSettingsIn>;
export const automationSettingsOut = automationSettingsIn.extend({
  /** False: nothing saved, the defaults. */
  saved: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type AutomationSettingsOut = z.infer<typeof automationSettingsOut>;

export const automationTestIn = z.object({ chatId: zId() });
export const automationTestOut = z.object({
  matched: z.boolean(),
  conditions: z.array(evaluated),
  actions: z.array(z.object({ type: z.string(), wouldDo: z.string() })),
});
export type AutomationTestOut = z.infer<typeof automationTestOut>;
