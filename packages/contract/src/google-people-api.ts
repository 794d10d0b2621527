import { z } from 'zod';

/**
 * Google contacts of the business's phones (issue 15, SPEC §2 /telefonos,
 * /telefonos/googlepeople/{id}/{clientId}/{clientSecret}, /telefonos/contactos/{id}; decision 0052).
 * A phone is connected to one Google account through OAuth (the company's own OAuth client: its
 * id and secret, sealed, never returned); its leads are created as that account's contacts with
 * the People API's `people:batchCreateContacts` (at most 200 a call), so the phone shows the
 * customers' names.
 *
 *   GET    /google-people/phones                    → {payload: GooglePhoneOut[]} (every phone's Google state)
 *   GET    /google-people/phones/{id}               → GooglePhoneOut
 *   GET    /google-people/phones/{id}/leads         googleLeadsQuery → the phone's leads, each with its Google state
 *   POST   /google-people/phones/{id}/credentials   googleCredentialsInput → GoogleConsentOut (kept sealed; the consent URL)
 *   POST   /google-people/phones/{id}/authorize     → GoogleConsentOut (consent again with the kept credentials)
 *   DELETE /google-people/phones/{id}               → {msg} (forgets the credentials and tokens)
 *   POST   /google-people/phones/{id}/sync          → 202 GoogleSyncOut («Sincronizar con Google», a job)
 *   GET    /google-people/callback                  (public) Google's redirect: code exchanged, back to /telefonos?google=…
 *   (SSE)  google.sync                              a sync moved on
 */
export const GOOGLE_CONTACTS_SCOPE = 'https://www.googleapis.com/auth/contacts';
/** The People API's limit of contacts per `people:batchCreateContacts`. */
export const GOOGLE_BATCH_MAX = 200;

export const googlePhoneParams = z.object({ id: z.uuid({ error: 'El teléfono no existe' }) }).strict();

/** What Google's console gives for an OAuth client of type «Aplicación web». */
export const googleCredentialsInput = z
  .object({
    clientId: z
      .string({ error: 'Pega el Client ID de Google' })
      .trim()
      .min(1, 'Pega el Client ID de Google')
      .max(300, 'El Client ID es demasiado largo')
      .regex(/^[A-Za-z0-9._-]+$/, 'El Client ID no tiene esa forma: es como 1234567890-abc123.apps.googleusercontent.com'),
    clientSecret: z
      .string({ error: 'Pega el Client secret de Google' })
      .trim()
      .min(1, 'Pega el Client secret de Google')
      .max(300, 'El Client secret es demasiado largo')
      .regex(/^[A-Za-z0-9._~-]+$/, 'El Client secret no tiene esa forma: es como GOCSPX-… sin espacios'),
  })
  .strict();
export type GoogleCredentialsInput = z.input<typeof googleCredentialsInput>;

export const googleLeadsQuery = z
  .object({
    page: z.coerce.number({ error: 'La página es un número' }).int().min(1).max(100_000).default(1),
    limit: z.coerce.number({ error: 'La cantidad es un número' }).int().min(1).max(100).default(20),
    /** Search text (name or digits of the phone), as every list's `filter`. */
    filter: z.string().trim().max(120, 'La búsqueda es demasiado larga').optional(),
  })
  .strict();
export type GoogleLeadsQuery = z.input<typeof googleLeadsQuery>;

/** A phone's Google state: no credentials, credentials without consent, connected, or the grant lost. */
export const googlePhoneStates = ['sin-conectar', 'falta-autorizar', 'conectado', 'reconectar'] as const;
export type GooglePhoneState = (typeof googlePhoneStates)[number];
export const googlePhoneStateLabels: Record<GooglePhoneState, string> = {
  'sin-conectar': 'Sin conectar',
  'falta-autorizar': 'Falta autorizar en Google',
  conectado: 'Conectado',
  reconectar: 'Reconectar con Google',
};

export const googleSyncStatuses = ['en-cola', 'en-curso', 'terminada', 'fallida'] as const;
export const googleSyncOut = z.object({
  id: z.string(),
  telefonoId: z.string(),
  status: z.enum(googleSyncStatuses),
  /** Leads to create when the sync started. */
  total: z.number().int(),
  done: z.number().int(),
  created: z.number().int(),
  /** Leads Google refused or that have no usable phone (each with its reason on the list). */
  failed: z.number().int(),
  /** Calls made to Google (batches, retries after a 429, the token's refresh not counted). */
  requests: z.number().int(),
  message: z.string().optional(),
  createdAt: z.string(),
  startedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type GoogleSyncOut = z.infer<typeof googleSyncOut>;

export const googlePhoneOut = z.object({
  telefonoId: z.string(),
  numero: z.string(),
  state: z.enum(googlePhoneStates),
  googleContactEmail: z.string().optional(),
  /** Why the phone must be reconnected, or why the last consent failed (Spanish). */
  reason: z.string().optional(),
  /** The Client ID's first characters: which OAuth client is kept (the secret is never shown). */
  clientIdHint: z.string().optional(),
  /** The demo's sandbox Google: nothing reaches Google. */
  sandbox: z.boolean(),
  connectedAt: z.string().optional(),
  /** The phone's leads, and those already created in its Google contacts. */
  leads: z.number().int(),
  synced: z.number().int(),
  lastSync: googleSyncOut.optional(),
});
export type GooglePhoneOut = z.infer<typeof googlePhoneOut>;

export const googleLeadOut = z.object({
  _id: z.string(),
  name: z.string(),
  telefono: z.string().optional(),
  email: z.string().optional(),
  /** Google's `people/c…` once created. */
  resourceName: z.string().optional(),
  /** Why it could not be created (Spanish); it is tried again by the next sync. */
  problem: z.string().optional(),
});
export type GoogleLeadOut = z.infer<typeof googleLeadOut>;

export const googleLeadsOut = z.object({
  payload: z.array(googleLeadOut),
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
});
export type GoogleLeadsOut = z.infer<typeof googleLeadsOut>;

export const googleConsentOut = z.object({ msg: z.string(), url: z.string() });
export type GoogleConsentOut = z.infer<typeof googleConsentOut>;

/** Where the OAuth callback sends the browser back: `/telefonos?google=<outcome>` (codes, so no text is taken from the address). */
export const googleCallbackOutcomes = ['conectado', 'cancelado', 'estado-invalido', 'codigo-invalido', 'sin-refresh-token', 'error'] as const;
export type GoogleCallbackOutcome = (typeof googleCallbackOutcomes)[number];
export const googleCallbackMessages: Record<GoogleCallbackOutcome, string> = {
  conectado: 'Teléfono conectado con Google: ya puedes sincronizar sus contactos',
  cancelado: 'No se conectó: en Google se canceló o no se dio el permiso a los contactos',
  'estado-invalido': 'No se conectó: el enlace de autorización venció o no es de esta sesión. Vuelve a pulsar «Conectar con Google»',
  'codigo-invalido': 'No se conectó: Google no aceptó el código. Revisa que el Client ID, el Client secret y la URI de redirección autorizada sean los de tu cliente OAuth',
  'sin-refresh-token': 'No se conectó: Google no entregó un token de actualización. Quita el acceso de la app en tu cuenta de Google y vuelve a conectar',
  error: 'No se conectó: Google no respondió. Inténtalo de nuevo en unos minutos',
};

export const googleMessages = {
  phoneMissing: 'Ese teléfono no existe en esta compañía',
  credentialsSaved: 'Credenciales guardadas: falta autorizar el acceso en Google',
  noCredentials: 'Este teléfono no tiene credenciales de Google: pulsa «Conectar con Google»',
  notConnected: 'Este teléfono no está conectado con Google: autoriza el acceso primero',
  disconnected: 'Teléfono desconectado de Google',
  syncQueued: 'Sincronizando los leads del teléfono con sus contactos de Google',
  syncBusy: 'Ya hay una sincronización en curso para este teléfono',
  nothingToSync: 'Todos los leads de este teléfono ya están en sus contactos de Google',
  interrupted: 'La sincronización se interrumpió: la siguiente sigue donde quedó',
  invalidGrant: 'Google ya no acepta el permiso de este teléfono (se revocó, venció o se cambió la contraseña): pulsa «Reconectar con Google»',
  unauthorized: 'Google rechazó las credenciales del teléfono (Client ID o Client secret): vuelve a conectarlo con las del cliente OAuth',
  forbidden: 'La cuenta de Google no dio permiso a los contactos o la People API no está habilitada en el proyecto de Google Cloud',
  rateLimited: 'Google limitó las solicitudes por un momento: se reintentará solo',
  unavailable: 'Google no respondió: se reintentará en unos minutos',
  noPhone: 'El lead no tiene teléfono',
  badPhone: 'El teléfono del lead no es un número válido',
  refused: 'Google no aceptó este contacto',
  done: (created: number, failed: number) =>
    `${created === 1 ? '1 contacto creado' : `${created} contactos creados`} en Google${failed ? `; ${failed === 1 ? '1 no se pudo crear' : `${failed} no se pudieron crear`}` : ''}`,
} as const;
