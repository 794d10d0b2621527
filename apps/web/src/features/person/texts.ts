import type { DuplicateReason, Person } from '@mostrador/contract';

/** The person view's Spanish texts (the chat's side panel and the person drawer of /lead/todos). */
export const personTexts = {
  title: 'Persona',
  loadError: 'No se pudieron cargar los datos de la persona.',
  retry: 'Reintentar',
  noPerson: 'Esta conversación aún no está unida a una persona: se unirá con su próximo mensaje.',
  name: 'Nombre',
  phones: 'Teléfonos',
  emails: 'Correos',
  addPhone: 'Agregar teléfono',
  addEmail: 'Agregar correo',
  edit: (what: string) => `Editar ${what.toLowerCase()}`,
  save: 'Guardar',
  cancel: 'Cancelar',
  ownPhone: 'Teléfono de la persona',
  ownEmail: 'Correo de la persona',
  channelNumber: (channel: string) => `Número de ${channel}`,
  saved: 'Datos de la persona actualizados',
  conversations: 'Conversaciones de esta persona',
  thisConversation: 'Esta conversación',
  noConversations: 'No tiene otras conversaciones',
  contacts: 'Contactos guardados',
  noContacts: 'Ningún contacto guardado tiene su teléfono o correo',
  duplicates: 'Posibles duplicados',
  noDuplicates: 'No encontramos otra persona con su teléfono o correo.',
  searchOther: 'Buscar otra persona para unir',
  searchHelp: 'Nombre, teléfono o correo',
  noResults: 'Ninguna persona coincide con la búsqueda',
  searching: 'Buscando…',
  reasons: { telefono: 'Mismo teléfono', email: 'Mismo correo', busqueda: 'Encontrada por búsqueda' } satisfies Record<DuplicateReason, string>,
  counts: (chats: number, messages: number) =>
    `${chats === 1 ? '1 conversación' : `${chats} conversaciones`} · ${messages === 1 ? '1 mensaje' : `${messages} mensajes`}`,
  merge: 'Unir',
  mergeLabel: (name: string) => `Unir a ${name}`,
  mergeTitle: '¿Unir contactos?',
  mergeWhat: (duplicate: string, kept: string) => `«${duplicate}» se unirá a «${kept}».`,
  mergeMoves: (chats: number, messages: number, kept: string) =>
    chats === 0
      ? `Sus datos, etiquetas y detalles pasan a ${kept}.`
      : `${chats === 1 ? 'Su conversación' : `Sus ${chats} conversaciones`} y ${messages === 1 ? 'su mensaje' : `sus ${messages} mensajes`} pasan a ${kept}, con sus etiquetas y detalles; no se pierde ningún mensaje.`,
  mergeKeeps: (kept: string) => `Si tienen datos distintos, se conservan los de ${kept} (lo que falte se completa con los del duplicado).`,
  mergeGone: (duplicate: string) => `«${duplicate}» deja de existir como persona aparte. Esta acción no se puede deshacer.`,
  mergeConfirm: 'Unir contactos',
  merging: 'Uniendo…',
  mergedDetail: (chats: number, messages: number, kept: string) =>
    chats === 0 ? `Sus datos pasaron a ${kept}.` : `${personTexts.counts(chats, messages)} pasaron a ${kept}.`,
  mergeFailed: 'No se pudieron unir los contactos. No se cambió nada.',
  close: 'Cerrar',
} as const;

/** The person's channels, as their leads have them (no repeats). */
export const channelsOf = (person: Pick<Person, 'leads'>) => [...new Set(person.leads.map((l) => l.platform))];
