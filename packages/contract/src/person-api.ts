import { z } from 'zod';
import { chatSummaryOut } from './chat-api.js';
import { zEmail, zId, zRefIds, zText } from './fields.js';
import { formMessages } from './messages-es.js';
import { leadDetail, leadPlatforms, leadStatuses } from './resources/leads.js';

/**
 * The person behind a chat (issue 11, decision 0029): one view of the clean lead (the person),
 * every lead of that person on every channel with their chats, and the hand-typed contacts
 * (contactos) that share one of the person's phones or e-mails. Scoped to the caller's company.
 *
 *   GET  /people?chatId= | leadId= | cleanLeadId=   personQuery → Person
 *   PUT  /people/:id                                personPatch → Person (name, phone, e-mail, labels)
 *   GET  /people/:id/duplicates?filter=             → { payload: DuplicateCandidate[] }
 *   POST /people/:id/merge                          mergeInput → MergeResult (the duplicate joins :id)
 *
 * `:id` is the clean lead's id. Reading needs leads · read; editing and merging leads · update.
 */

export const personMessages = {
  oneKey: 'Indica una sola de estas opciones: chatId, leadId o cleanLeadId',
  noChange: 'Indica al menos un dato para cambiar',
  phone: 'El teléfono no es válido: escribe de 8 a 15 dígitos, con el código de país si no es de tu país',
  notFound: 'La persona no existe en esta compañía',
  duplicateNotFound: 'La persona que quieres unir no existe en esta compañía',
  self: 'No se puede unir una persona consigo misma',
  keptMerged: 'Esta persona ya se unió a otra: vuelve a abrirla para ver a quién',
  noPerson: 'Esta conversación aún no pertenece a una persona: se unirá a una con su próximo mensaje',
  merged: (name: string) => `Contactos unidos: todo pasó a ${name}`,
  alreadyMerged: (name: string) => `Estos contactos ya estaban unidos en ${name}`,
} as const;

export const personQuery = z
  .object({ chatId: zId().optional(), leadId: zId().optional(), cleanLeadId: zId().optional() })
  .strict()
  .refine((q) => [q.chatId, q.leadId, q.cleanLeadId].filter(Boolean).length === 1, { message: personMessages.oneKey });
export const personParams = z.object({ id: zId() }).strict();

/** One lead of the person (one conversation on one channel, or a form/store lead), with its chats. */
export const personLeadOut = z.object({
  _id: z.string(),
  name: z.string(),
  platform: z.enum(leadPlatforms),
  telefono: z.string().optional(),
  email: z.string().optional(),
  status: z.enum(leadStatuses).optional(),
  agenteId: z.string().optional(),
  mostradorLabels: z.array(z.string()).optional(),
  createdAt: z.string(),
  chats: z.array(chatSummaryOut),
});
export type PersonLead = z.infer<typeof personLeadOut>;

/** A hand-typed contact (contactos) sharing one of the person's phones or e-mails. */
export const personContactOut = z.object({
  _id: z.string(),
  nombre: z.string(),
  telefono: z.string(),
  email: z.string().optional(),
  telefonoId: z.string().optional(),
});

export const personOut = z.object({
  /** The clean lead's id; absent when the lead belongs to no person yet (then `leads` is that lead alone). */
  _id: z.string().optional(),
  name: z.string(),
  /** The person's own phone and e-mail (the clean lead's), which the panel edits. */
  telefono: z.string().optional(),
  email: z.string().optional(),
  /** Every phone and e-mail the person is known by: their own first, then their leads' (no repeats). */
  telefonos: z.array(z.string()),
  emails: z.array(z.string()),
  mostradorLabels: z.array(z.string()),
  status: z.enum(leadStatuses).optional(),
  agenteId: z.string().optional(),
  details: z.array(leadDetail).optional(),
  leads: z.array(personLeadOut),
  contactos: z.array(personContactOut),
  /** The id that was asked for when it had been merged into this person (an old link). */
  mergedFrom: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type Person = z.infer<typeof personOut>;

/**
 * PUT /people/:id: what the panel edits. The phone is normalised (SPEC §5, the company's
 * country by default); `null` or '' clears the phone or e-mail. Labels are the person's: the
 * list is written to the clean lead and to every lead of the person.
 */
export const personPatch = z
  .object({
    name: zText(120).optional(),
    telefono: z.union([z.literal(''), z.null(), z.string({ error: formMessages.invalid }).trim().max(40, formMessages.tooLong)]).optional(),
    email: z.union([z.literal(''), z.null(), zEmail()]).optional(),
    mostradorLabels: zRefIds().unwrap().optional(),
  })
  .strict()
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: personMessages.noChange });
export type PersonPatch = z.input<typeof personPatch>;

/** GET /people/:id/duplicates: `filter` searches any person by name, phone or e-mail instead of the automatic matches. */
export const duplicatesQuery = z
  .object({ filter: z.string({ error: formMessages.invalid }).trim().max(120, 'La búsqueda es demasiado larga').optional() })
  .strict();

/** Why a person may be the same one: a shared phone, a shared e-mail, or the user's search. */
export const duplicateReasons = ['telefono', 'email', 'busqueda'] as const;
export type DuplicateReason = (typeof duplicateReasons)[number];

export const duplicateCandidateOut = z.object({
  _id: z.string(),
  name: z.string(),
  telefono: z.string().optional(),
  email: z.string().optional(),
  reasons: z.array(z.enum(duplicateReasons)),
  /** The channels of its leads. */
  platforms: z.array(z.enum(leadPlatforms)),
  leads: z.number().int(),
  chats: z.number().int(),
  messages: z.number().int(),
  createdAt: z.string(),
});
export type DuplicateCandidate = z.infer<typeof duplicateCandidateOut>;
export const DUPLICATES_MAX = 20;

/** POST /people/:id/merge: the duplicate person joins :id (kept); the duplicate's clean lead is removed. */
export const mergeInput = z.object({ duplicateId: zId() }).strict();
export const mergeResult = z.object({
  msg: z.string(),
  /** True when the duplicate had already been merged (a retried or concurrent call): nothing changed now. */
  alreadyMerged: z.boolean(),
  /** What passed to the kept person. */
  moved: z.object({ leads: z.number().int(), chats: z.number().int(), messages: z.number().int() }),
  person: personOut,
});
export type MergeResult = z.infer<typeof mergeResult>;
