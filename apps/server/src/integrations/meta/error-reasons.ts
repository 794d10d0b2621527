/**
 * Why Meta refused or could not deliver a message, in Spanish, from the Graph API error code
 * (WhatsApp Cloud API and Messenger Platform; decision 0027). An agent reads this under a
 * failed message, so it says what happened and what to do, never an internal path. Codes not
 * listed keep the provider's own message (see reasonOf).
 */
const byCode: Record<number, string> = {
  // WhatsApp Cloud API
  131026: 'Mensaje no entregable: el número no tiene WhatsApp, no aceptó las condiciones vigentes o usa una versión antigua de la app',
  131047: 'Pasaron más de 24 horas desde el último mensaje del cliente: solo se le puede escribir con una plantilla aprobada',
  131048: 'WhatsApp limitó los envíos de esta línea por reportes de spam: espera antes de volver a escribir',
  131049: 'WhatsApp no entregó el mensaje para cuidar la experiencia del cliente: no lo reintentes enseguida',
  131056: 'Demasiados mensajes seguidos a este cliente: espera unos segundos y vuelve a intentarlo',
  130429: 'La línea alcanzó su límite de envíos por segundo: vuelve a intentarlo en un momento',
  131000: 'WhatsApp tuvo un error interno al enviar el mensaje: vuelve a intentarlo',
  131005: 'El token de acceso no tiene permiso para enviar mensajes desde esta línea',
  131008: 'Al mensaje le falta un dato obligatorio',
  131009: 'Un dato del mensaje no es válido',
  131021: 'No se puede enviar un mensaje al mismo número que lo envía',
  131031: 'La cuenta de WhatsApp Business está bloqueada',
  131042: 'Hay un problema con el método de pago de la cuenta de WhatsApp Business',
  131045: 'La línea no está registrada correctamente en WhatsApp Business',
  131051: 'WhatsApp no admite este tipo de mensaje',
  131053: 'WhatsApp no pudo descargar el archivo: revisa que el enlace sea público y el formato admitido',
  // templates (decision 0038): what Meta says of a template send, and of the template API
  132000: 'La cantidad de variables no coincide con la plantilla: sincroniza las plantillas y vuelve a enviarla',
  132001: 'La plantilla no existe o no está aprobada en ese idioma: sincroniza las plantillas en Mensajes de plantilla',
  132005: 'El texto de la plantilla con sus variables es demasiado largo: acorta los valores',
  132007: 'El contenido de la plantilla o de sus variables infringe las políticas de WhatsApp',
  132012: 'Las variables no tienen el formato que la plantilla espera (texto, moneda, fecha o archivo)',
  132015: 'La plantilla está pausada por su baja calidad: no se puede enviar hasta que Meta la reactive',
  132016: 'La plantilla fue desactivada por Meta por su baja calidad: ya no se puede enviar',
  132068: 'El flujo de la plantilla está bloqueado',
  132069: 'El flujo de la plantilla está limitado: vuelve a intentarlo en un momento',
  80008: 'Demasiadas llamadas a la cuenta de WhatsApp Business: espera unos minutos y vuelve a intentarlo',
  // Graph API, both platforms
  190: 'El token de acceso venció o no es válido: un administrador debe guardar uno nuevo en Integraciones › WhatsApp',
  10: 'La app de Meta no tiene permiso para enviar mensajes por este canal',
  200: 'La app de Meta no tiene permiso para enviar mensajes por este canal',
  4: 'Meta limitó las llamadas de la app: vuelve a intentarlo en unos minutos',
  613: 'Meta limitó los envíos por un tiempo: vuelve a intentarlo en unos minutos',
  368: 'Meta bloqueó temporalmente los envíos de esta página por sus políticas',
  551: 'Esta persona no está disponible para recibir mensajes ahora',
};

/** Messenger / Instagram Send API subcodes (with code 10 or 100). */
const bySubcode: Record<number, string> = {
  2018278: 'Pasaron más de 24 horas desde el último mensaje del cliente: la página solo puede escribirle cuando vuelva a escribir',
  2018001: 'La persona no está disponible en esta página (no le escribió o la bloqueó)',
  2018108: 'No se puede escribir a esta persona desde esta página',
  2534022: 'Pasaron más de 24 horas desde el último mensaje del cliente: la página solo puede escribirle cuando vuelva a escribir',
};

/** The Spanish reason of a Graph error code (and subcode), when it is a known one. */
export function graphErrorReason(code: number | undefined, subcode?: number): string | undefined {
  if (subcode !== undefined && bySubcode[subcode]) return bySubcode[subcode];
  return code === undefined ? undefined : byCode[code];
}

/**
 * The reason stored on a failed message: the Spanish text of a known code, else the
 * provider's own message after `prefix`; with the code, which support looks up.
 */
export function reasonOf(code: number | undefined, providerText: string, subcode?: number, prefix?: string): string {
  const known = graphErrorReason(code, subcode);
  const codes = code !== undefined ? ` (código ${code}${subcode ? `/${subcode}` : ''})` : '';
  return known ? `${known}${codes}` : `${prefix ? `${prefix}: ` : ''}${providerText}${codes}`;
}
