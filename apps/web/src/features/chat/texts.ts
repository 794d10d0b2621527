import { type ChatMessageKind, chatMessages_es, type Platform } from '@mostrador/contract';

/**
 * The chat screen's Spanish texts (the shared dictionary, i18n/es.ts, holds the app-wide
 * ones; screen texts live with their screen, as the list screens' configs do).
 */
export const chatTexts = {
  title: 'Chat',
  inbox: 'Conversaciones',
  search: 'Buscar por nombre, teléfono o mensaje',
  filters: 'Filtros',
  clearFilters: 'Limpiar filtros',
  channel: 'Canal',
  leadStatus: 'Estado del lead',
  agent: 'Agente',
  label: 'Etiqueta',
  chatGroup: 'Grupo de chat',
  all: 'Todos',
  allFem: 'Todas',
  onlyUnread: 'Solo no leídos',
  loadMore: 'Cargar más',
  loading: 'Cargando…',
  loadError: 'No se pudieron cargar las conversaciones.',
  retry: 'Reintentar',
  empty: 'Aún no hay conversaciones',
  emptyHint: 'Conecta tu línea de WhatsApp o tu página de Facebook para recibir mensajes aquí.',
  emptyLink: 'Conectar WhatsApp',
  noResults: 'Ninguna conversación coincide con la búsqueda o los filtros',
  unread: (n: number) => (n === 1 ? '1 mensaje sin leer' : `${n} mensajes sin leer`),
  select: 'Seleccionar',
  selectMode: 'Seleccionar chats para un mensaje masivo',
  cancelSelect: 'Cancelar selección',
  selected: (n: number) => (n === 1 ? '1 seleccionado' : `${n} seleccionados`),
  massive: 'Enviar mensaje masivo',
  massiveTitle: 'Enviar mensaje masivo',
  massiveHelp: (n: number) => `El mensaje se enviará a ${n === 1 ? '1 chat' : `${n} chats`}. Los chats de WhatsApp fuera de la ventana de 24 horas se omiten.`,
  massiveText: 'Mensaje',
  massiveSend: 'Enviar',
  massiveQueued: (n: number) => (n === 1 ? '1 mensaje en cola de envío' : `${n} mensajes en cola de envío`),
  massiveSkipped: 'No se enviaron a estos chats:',
  massiveNone: 'No se envió ningún mensaje.',
  close: 'Cerrar',
  cancel: 'Cancelar',
  // thread
  messages: 'Mensajes',
  pickChat: 'Elige una conversación para ver sus mensajes',
  threadError: 'No se pudo cargar la conversación.',
  loadOlder: 'Cargar mensajes anteriores',
  noMessages: 'Aún no hay mensajes en esta conversación',
  deleted: 'Mensaje eliminado',
  deleteMessage: 'Eliminar mensaje',
  confirmDeleteMessage: '¿Seguro que deseas eliminar este mensaje? Esta acción no se puede deshacer.',
  backToList: 'Volver a las conversaciones',
  showPanel: 'Ver datos del lead',
  hidePanel: 'Ocultar datos del lead',
  openImage: 'Abrir imagen',
  download: 'Descargar',
  mediaError: 'No se pudo cargar el archivo',
  openLink: 'Abrir enlace',
  backToThread: 'Volver a la conversación',
  mediaLoading: 'Cargando archivo…',
  youtube: 'Video de YouTube',
  failedReason: 'Motivo',
  newMessages: 'Mensajes nuevos',
  // composer
  placeholder: 'Escribe un mensaje',
  placeholderClosed: 'Ventana de 24 horas cerrada',
  composerHelp: 'Enter envía · Shift+Enter salto de línea',
  send: 'Enviar',
  attach: 'Adjuntar archivo por enlace',
  attachTitle: 'Adjuntar archivo',
  mediaKind: 'Tipo de archivo',
  mediaUrl: 'Enlace del archivo',
  mediaUrlHelp: 'Un enlace público (https://…). Se detecta el tipo por la extensión.',
  caption: 'Texto (opcional)',
  outsideWindow: chatMessages_es.outsideWindow,
  // lead panel
  lead: 'Lead',
  noLead: 'Esta conversación no tiene un lead asociado.',
  name: 'Nombre',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  status: 'Estado',
  noAgent: 'Sin asignar',
  labels: 'Etiquetas Mostrador',
  addLabel: 'Agregar etiqueta',
  noLabels: 'Sin etiquetas',
  otherChats: 'Otras conversaciones de esta persona',
  noOtherChats: 'No tiene otras conversaciones',
} as const;

/** How the inbox names a platform: Facebook chats are Messenger conversations. */
export const channelNames: Record<Platform, string> = { whatsapp: 'WhatsApp', facebook: 'Messenger', instagram: 'Instagram' };

export const kindNames: Record<ChatMessageKind, string> = {
  text: 'Texto',
  image: 'Imagen',
  video: 'Video',
  audio: 'Audio',
  document: 'Documento',
};

/** The preview of a message in the inbox (its text, else its kind with an icon-like prefix). */
export function previewOf(message: { kind: ChatMessageKind; text?: string; isActive?: boolean }): string {
  if (message.isActive === false) return chatTexts.deleted;
  if (message.text?.trim()) return message.text.trim().slice(0, 300);
  return kindNames[message.kind];
}
