import {
  type AutomationActionType,
  type AutomationRuleOut,
  type AutomationTimerKind,
  type AutomationTrigger,
  automationTimerLabels,
  automationActionLabels,
  automationRunStatusLabels,
  automationTriggerLabels,
  type ConditionField,
  type ConditionOp,
  consultationMotiveLabels,
  conditionFields,
  conditionOpLabels,
  countries,
  leadStatusLabels,
  orderStatusLabels,
  platformLabels,
  sentimentLabels,
} from '@mostrador/contract';

/** The screen's texts (Spanish, SPEC's tone): the selects' own labels come from the contract's tables. */
export const automationTexts = {
  title: 'Automatizaciones',
  subtitle: 'Reglas que trabajan solas: cuando pasa algo en un chat, si se cumplen sus condiciones, hacen sus acciones por ti. Se revisan en este orden.',
  create: 'Nueva regla',
  empty: 'Todavía no hay reglas. Crea la primera: por ejemplo, que los mensajes que preguntan por el precio se etiqueten «Cotización» y vayan a Ventas.',
  createFirst: 'Crear la primera regla',
  loadError: 'No se pudieron cargar las reglas.',
  retry: 'Reintentar',
  enabled: 'Activa',
  disabled: 'Inactiva',
  enable: (name: string) => `Activar «${name}»`,
  enabledToast: 'Regla activada',
  disabledToast: 'Regla desactivada',
  when: 'Cuando',
  runsToday: (n: number) => (n === 1 ? '1 ejecución hoy' : `${n} ejecuciones hoy`),
  lastRun: (when: string) => `Última: ${when}`,
  neverRun: 'Nunca se ejecutó',
  moveUp: 'Subir',
  moveDown: 'Bajar',
  edit: 'Editar',
  remove: 'Eliminar',
  removeTitle: 'Eliminar regla',
  removeMessage: (name: string) => `Se elimina «${name}» con su historial de ejecuciones. No se puede deshacer.`,
  test: 'Probar',
  runs: 'Ejecuciones',
  hideRuns: 'Ocultar ejecuciones',
  noRuns: 'Todavía no se ejecutó.',
  runsError: 'No se pudieron cargar las ejecuciones.',
  openChat: 'Ver el chat',
  chained: (depth: number) => `En cadena (paso ${depth})`,
  conditionsTitle: 'Condiciones',
  actionsTitle: 'Acciones',
  noConditions: 'Sin condiciones: se cumple siempre.',
  actionOk: 'hecho',
  form: {
    newTitle: 'Nueva regla',
    editTitle: 'Editar regla',
    name: 'Nombre',
    nameHelp: 'Para reconocerla en la lista, por ejemplo «Cotizaciones a Ventas»',
    trigger: 'Cuando',
    match: 'Si se cumplen',
    matchAll: 'todas las condiciones',
    matchAny: 'alguna de las condiciones',
    enabled: 'Activa',
    conditions: 'Condiciones',
    noConditions: 'Sin condiciones, la regla actúa cada vez que pasa el evento.',
    addCondition: 'Agregar condición',
    removeCondition: (n: number) => `Quitar la condición ${n}`,
    field: 'Condición',
    op: 'Comparación',
    value: 'Valor',
    minutes: 'Minutos',
    actions: 'Entonces',
    addAction: 'Agregar acción',
    removeAction: (n: number) => `Quitar la acción ${n}`,
    action: 'Acción',
    label: 'Etiqueta',
    agent: 'Agente',
    status: 'Estado',
    text: 'Texto',
    noteText: 'Nota',
    noticeText: 'Aviso para el agente',
    snoozeMinutes: 'Minutos',
    waitMinutes: 'Minutos de espera',
    waitHelp: 'Luego sigue con las acciones de abajo, sin volver a revisar las condiciones.',
    url: 'Dirección (URL)',
    urlHelp: 'Recibe un POST con el evento y el chat',
    phone: 'Línea',
    yes: 'Sí',
    no: 'No',
    none: 'No hay opciones todavía',
    chooseLabel: 'Elige una etiqueta',
    chooseAgent: 'Elige un agente',
    template: 'Plantilla aprobada',
    chooseTemplate: 'Elige una plantilla',
    noTemplates: 'No hay plantillas aprobadas: créalas en Mensajería › Mensajes de plantilla',
    team: 'Equipo de ventas',
    chooseTeam: 'Elige un equipo',
    noTeams: 'No hay equipos de ventas: créalos en Organización › Equipo de ventas',
    teamHelp: 'Va al próximo agente activo y «Disponible» del equipo, por turnos',
    roundRobinHelp: 'Va al próximo agente activo y «Disponible» de la compañía, por turnos',
    replyProductsHelp: 'Responde sola, dentro de la ventana, con los productos del catálogo que nombra el mensaje: precio y stock reales (el borrador de «Sugerir respuesta», nunca el del modelo). Si no nombra ninguno con stock, no responde.',
    imagina: 'Plantilla Imagina',
    chooseImagina: 'Elige una plantilla Imagina',
    noImagina: 'No hay plantillas Imagina: créalas en Mensajería › Plantillas Imagina',
    imaginaHelp: 'Se envía como texto, dentro de la ventana de 24 horas, con {{nombre}}, {{empresa}}… del chat. Solo las aprobadas.',
    templateValue: (n: number) => `Valor de {{${n}}}`,
    templateValuesHelp: 'Puedes usar {nombre}, {telefono}, {empresa}, {pedido} y {estado}: se reemplazan al enviar.',
    cancel: 'Cancelar',
    save: 'Guardar',
    create: 'Crear regla',
    saving: 'Guardando…',
    fixErrors: 'Revisa los campos marcados.',
    saveFailed: 'No se pudo guardar la regla: revisa la conexión e inténtalo de nuevo.',
    motiveWords: 'Palabras del motivo',
  },
  settings: {
    open: 'Ajustes',
    title: 'Ajustes de las automatizaciones',
    messagesPerChatHour: 'Mensajes de reglas por chat y hora',
    help: 'Cuántos mensajes pueden enviar las reglas a un mismo chat en una hora, entre 1 y 100. Los que pasen del máximo no se envían y la ejecución dice por qué.',
    loadError: 'No se pudieron cargar los ajustes.',
    save: 'Guardar',
    saving: 'Guardando…',
    cancel: 'Cancelar',
    saved: 'Ajustes guardados',
    saveFailed: 'No se pudieron guardar los ajustes: revisa la conexión e inténtalo de nuevo.',
  },
  tryOut: {
    title: 'Probar con un chat',
    dialogTitle: (name: string) => `Probar «${name}»`,
    help: 'Mira qué haría la regla guardada con un chat, como si su último mensaje acabara de llegar. No se hace nada.',
    savedOnly: 'Guarda la regla para probarla con un chat.',
    chat: 'Chat',
    chatHelp: 'Busca por nombre, teléfono o mensaje',
    noChats: 'No se encontraron chats',
    searching: 'Buscando…',
    matched: 'Se cumplen las condiciones. Haría esto:',
    notMatched: 'No se cumplen las condiciones: no haría nada.',
    failed: 'No se pudo probar la regla.',
    close: 'Cerrar',
  },
} as const;

export const runStatusColor = { running: 'info', waiting: 'info', ok: 'success', error: 'error', skipped: 'default' } as const;
export const runStatusLabel = (s: keyof typeof automationRunStatusLabels) => automationRunStatusLabels[s];

/** Names of the ids a rule holds (labels, agents, lines); `undefined` while they load or once they are gone. */
export interface RuleNames {
  label: (id: string) => string | undefined;
  /** An approved WhatsApp template's name by its id. */
  template?: (id: string) => string | undefined;
  agent: (id: string) => string | undefined;
  /** A sales team's name by its id. */
  team?: (id: string) => string | undefined;
  phone: (id: string) => string | undefined;
  /** An Imagina template's name by its id. */
  imagina?: (id: string) => string | undefined;
  loading: boolean;
}

const named = (name: string | undefined, names: RuleNames, gone: string) => name ?? (names.loading ? '…' : gone);
const quoted = (s: string, max = 60) => `"${s.length > max ? `${s.slice(0, max - 1)}…` : s}"`;

/** «3 horas», «1 día y 2 horas», «45 minutos»: a timer's time. */
export function durationText(minutes: number): string {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const part = (n: number, one: string, many: string) => (n ? `${n} ${n === 1 ? one : many}` : '');
  const parts = [part(days, 'día', 'días'), part(hours, 'hora', 'horas'), part(mins, 'minuto', 'minutos')].filter(Boolean);
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}` : (parts[0] ?? '0 minutos');
}

/** An event type or a timer's firing (`timer.<kind>`, as runs name it) in Spanish. */
export const triggerLabel = (event: string) =>
  automationTriggerLabels[event as AutomationTrigger] ?? (event.startsWith('timer.') ? (automationTimerLabels[event.slice(6) as AutomationTimerKind] ?? event) : event);

/** A rule's trigger in Spanish: its event, or its timer with its time («El cliente no responde… · 23 horas»). */
export function ruleTriggerText(trigger: AutomationRuleOut['trigger']): string {
  if ('event' in trigger) return triggerLabel(trigger.event);
  const t = trigger.timer;
  const status = t.kind === 'order_status_age' && t.status ? ` «${orderStatusLabels[t.status]}»` : '';
  return `${automationTimerLabels[t.kind]}${status} · ${durationText(t.minutes)}`;
}
export const actionLabel = (type: string) => automationActionLabels[type as AutomationActionType] ?? type;

/** How a condition's value (or what the server found) reads, by its field's kind. */
export function valueText(field: string, value: unknown, names: RuleNames): string {
  const def = conditionFields[field as ConditionField];
  if (value === undefined || value === null || value === '') return 'nada';
  switch (def?.value) {
    case 'platform':
      return platformLabels[value as keyof typeof platformLabels] ?? String(value);
    case 'boolean':
      return value === true ? 'sí' : value === false ? 'no' : String(value);
    case 'label':
      if (Array.isArray(value)) return value.length ? value.map((id) => `«${named(names.label(String(id)), names, 'etiqueta eliminada')}»`).join(', ') : 'ninguna etiqueta';
      return `«${named(names.label(String(value)), names, 'etiqueta eliminada')}»`;
    case 'agent':
      return named(names.agent(String(value)), names, 'agente eliminado');
    case 'phone':
      return named(names.phone(String(value)), names, 'línea eliminada');
    case 'leadStatus':
      return `«${leadStatusLabels[value as keyof typeof leadStatusLabels] ?? String(value)}»`;
    case 'orderStatus':
      return `«${orderStatusLabels[value as keyof typeof orderStatusLabels] ?? String(value)}»`;
    case 'number':
      return `${value} min`;
    case 'team':
      return `«${named(names.team?.(String(value)), names, 'equipo eliminado')}»`;
    case 'sentiment':
      return sentimentLabels[value as keyof typeof sentimentLabels] ?? String(value);
    case 'motive':
      return `«${consultationMotiveLabels[value as keyof typeof consultationMotiveLabels] ?? String(value)}»`;
    case 'country':
      return countries.find((c) => c.code === value)?.name ?? String(value);
    case 'text':
      return typeof value === 'string' ? `«${value.length > 80 ? `${value.slice(0, 79)}…` : value}»` : String(value);
    default:
      return String(value);
  }
}

/** One condition as a sentence's clause: «el texto del mensaje contiene "precio"». */
export function conditionText(c: { field: string; op: string; value?: unknown }, names: RuleNames): string {
  const op = conditionOpLabels[c.op as ConditionOp] ?? c.op;
  const not = c.op === 'is_not' || c.op === 'has_not';
  const yes = c.value === true;
  switch (c.field as ConditionField) {
    case 'channel':
      return `el canal ${op} ${valueText(c.field, c.value, names)}`;
    case 'text':
      return c.op === 'matches' ? `el texto del mensaje ${op} /${String(c.value ?? '')}/` : `el texto del mensaje ${op} ${quoted(String(c.value ?? ''))}`;
    case 'first_message':
      return yes ? 'es el primer mensaje de la persona' : 'no es el primer mensaje de la persona';
    case 'label':
      return `el lead ${not ? 'no tiene' : 'tiene'} la etiqueta ${valueText(c.field, c.value, names)}`;
    case 'lead_status':
      return `el estado del lead ${op} ${valueText(c.field, c.value, names)}`;
    case 'agent':
      if (c.op === 'none') return 'no tiene agente asignado';
      if (c.op === 'any') return 'tiene un agente asignado';
      return `el agente asignado ${op} ${valueText(c.field, c.value, names)}`;
    case 'line':
      return `la línea de WhatsApp ${op} ${valueText(c.field, c.value, names)}`;
    case 'window_open':
      return yes ? 'la ventana de 24 horas está abierta' : 'la ventana de 24 horas está cerrada';
    case 'referral':
      return yes ? 'llegó por un anuncio' : 'no llegó por un anuncio';
    case 'order_status':
      return `el estado del pedido ${op} ${valueText(c.field, c.value, names)}`;
    case 'minutes_since_customer':
      return `pasaron ${op} ${String(c.value ?? '')} minutos desde que escribió el cliente`;
    case 'business_hours':
      return yes ? 'es dentro del horario de atención' : 'es fuera del horario de atención';
    case 'team':
      if (c.op === 'none') return 'el agente asignado no tiene equipo';
      return `el equipo del agente ${op} ${valueText(c.field, c.value, names)}`;
    case 'sentiment':
      return `el sentimiento del último análisis ${op} ${valueText(c.field, c.value, names).toLowerCase()}`;
    case 'motive':
      return c.op === 'contains' ? `el motivo del último análisis ${op} ${quoted(String(c.value ?? ''))}` : `el motivo del último análisis ${op} ${valueText(c.field, c.value, names)}`;
    case 'country':
      return `el país de la persona ${op} ${valueText(c.field, c.value, names)}`;
    default:
      return `${c.field} ${op} ${String(c.value ?? '')}`;
  }
}

/** One action in the summary: «Agregar una etiqueta «Cotización»», «Asignar a Carla». */
export function actionText(a: Record<string, unknown>, names: RuleNames): string {
  const label = actionLabel(String(a.type));
  const str = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : '');
  switch (a.type) {
    case 'add_label':
    case 'remove_label':
      return `${label} «${named(names.label(str('labelId')), names, 'etiqueta eliminada')}»`;
    case 'assign_agent':
      return `Asignar a ${named(names.agent(str('agentId')), names, 'un agente eliminado')}`;
    case 'assign_team':
      return `Asignar por turnos a un agente disponible del equipo «${named(names.team?.(str('teamId')), names, 'equipo eliminado')}»`;
    case 'send_imagina':
      return `${label} «${named(names.imagina?.(str('templateId')), names, 'plantilla eliminada')}»`;
    case 'set_lead_status':
      return `${label} a «${leadStatusLabels[str('status') as keyof typeof leadStatusLabels] ?? str('status')}»`;
    case 'send_text':
    case 'note':
    case 'notify_agent':
      return `${label}: ${quoted(str('text'), 50)}`;
    case 'send_template':
      return `${label} «${named(names.template?.(str('templateId')), names, 'plantilla eliminada')}»`;
    case 'snooze':
      return `${label} ${String(a.minutes ?? '')} min`;
    case 'wait':
      return `Esperar ${String(a.minutes ?? '')} min y seguir`;
    case 'webhook': {
      let host = str('url');
      try {
        host = new URL(host).host;
      } catch {
        // the whole address, as typed
      }
      return `${label} (${host})`;
    }
    default:
      return label;
  }
}

/** The card's one line: «Si … y … → acción, acción». */
export function ruleSummary(rule: Pick<AutomationRuleOut, 'match' | 'conditions' | 'actions'>, names: RuleNames): string {
  const ifs = rule.conditions.map((c) => conditionText(c, names)).join(rule.match === 'any' ? ' o ' : ' y ');
  const thens = rule.actions.map((a) => actionText(a, names)).join(', ');
  return `${ifs ? `Si ${ifs}` : 'Siempre'} → ${thens}`;
}
