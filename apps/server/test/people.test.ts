import type { ChatSummary, DuplicateCandidate, MergeResult, Person } from '@mostrador/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WHATSAPP_LINE } from '../src/seed/demo-chats.js';
import { DEMO_PERSON_PHONE } from '../src/seed/demo-person.js';
import { type ChannelSuite, startChannelSuite, TEST_TOKEN } from './channel-suite.js';
import { deliver, metaMessage, whatsappText } from './fakes/meta.js';
import { as, type Signed, type TestApp } from './helpers.js';

/**
 * The person behind a chat (issue 11, decision 0029): one answer with the clean lead, its
 * leads on every channel with their chats and the matching contactos; editing it; its possible
 * duplicates; and the merge, which keeps every chat and message, is all or nothing, refuses
 * another company's ids and is harmless when repeated or run twice at once.
 */

const PERU_PAGE = '301000000000021';
const PERU_IG = '178400000000021';
const ACME_PAGE = '201000000000021';

let s: ChannelSuite;
let t: TestApp;
let admin: Signed;
let peru: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, who: Signed = admin, company = peru) =>
  t.app.inject({ method, url: `/api${url}`, headers: as(who, company), payload });
const ok = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who?: Signed, company?: string): Promise<T> => {
  const res = await call(method, url, payload, who, company);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const count = async (text: string, values: unknown[] = []) => Number((await t.sql<{ n: number }>(text, values))[0].n);

async function settle() {
  for (const id of await s.processor.pendingIds()) await s.processor.process(id);
}
/** A WhatsApp message from `from` to the demo line; answers its chat. */
async function whatsapp(from: string, name: string, text: string): Promise<string> {
  expect((await deliver(t, '/api/webhooks/whatsapp', whatsappText({ phoneNumberId: DEMO_WHATSAPP_LINE, from, name, text }))).statusCode).toBe(200);
  await settle();
  return chatOf(from);
}
/** A Messenger (page) or Instagram message from `sender`; answers its chat. */
async function meta(object: 'page' | 'instagram', pageId: string, sender: string, text: string): Promise<string> {
  expect((await deliver(t, '/api/webhooks/meta', metaMessage({ object, pageId, sender, text }))).statusCode).toBe(200);
  await settle();
  return chatOf(sender);
}
async function chatOf(platformUserId: string): Promise<string> {
  const [row] = await t.sql<{ chat_id: string }>('select chat_id from lead_identities where platform_user_id = $1', [platformUserId]);
  return row.chat_id;
}
const personOfChat = (chatId: string) => ok<Person>('GET', `/people?chatId=${chatId}`);
const messagesOf = (chatIds: string[]) => count('select count(*) as n from chat_messages where chat_id = any($1::uuid[])', [chatIds]);

beforeAll(async () => {
  s = await startChannelSuite([
    { company: 'peru', url: '/api/channels/meta', payload: { pageId: PERU_PAGE, pageName: 'Demo Perú', instagramAccountId: PERU_IG, accessToken: TEST_TOKEN } },
    { company: 'acmeCo', url: '/api/channels/meta', payload: { pageId: ACME_PAGE, pageName: 'Acme', accessToken: TEST_TOKEN } },
  ]);
  ({ t, admin, peru } = s);
});
afterAll(async () => {
  await s?.t.close();
});

describe('the demo', () => {
  it('has a person with chats on two channels, a hand-typed contact and a duplicate to merge', async () => {
    const chat = await chatOf(DEMO_PERSON_PHONE);
    const person = await personOfChat(chat);
    expect(person.name).toBe('Valeria Mendoza');
    expect(person.leads.map((l) => l.platform).sort()).toEqual(['instagram', 'whatsapp']);
    expect(person.leads.every((l) => l.chats.length === 1)).toBe(true);
    expect(person.contactos.map((c) => c.telefono)).toEqual([DEMO_PERSON_PHONE.slice(2)]);
    const { payload } = await ok<{ payload: DuplicateCandidate[] }>('GET', `/people/${person._id}/duplicates`);
    expect(payload).toEqual([expect.objectContaining({ name: 'Vale Mendoza', reasons: ['email'], platforms: ['facebook'], chats: 1, messages: 4 })]);
  });
});

describe('the person behind a chat', () => {
  let waChat: string;

  beforeAll(async () => {
    await whatsapp('51911222301', 'Valeria Mendoza', 'Hola, ¿tienen delivery a Surco?');
    waChat = await whatsapp('51911222301', 'Valeria Mendoza', 'Quiero dos packs familiares');
    // a contact typed by hand without the country code, and one of another person
    // (typed numbers must carry the country code now; older, imported and synced ones may not)
    const typed = await call('POST', '/contactos', { nombre: 'Vale (tienda)', telefono: '51911222301' });
    expect(typed.statusCode).toBe(201);
    await t.sql('update contactos set telefono = $1 where id = $2', ['911222301', typed.json()._id]);
    expect((await call('POST', '/contactos', { nombre: 'Otra persona', telefono: '51999000111' })).statusCode).toBe(201);
  });

  it('answers the clean lead, its leads with their chats, and the contactos with one of its phones', async () => {
    const person = await personOfChat(waChat);
    expect(person.name).toBe('Valeria Mendoza');
    expect(person.telefonos).toEqual(['51911222301']);
    expect(person.leads).toHaveLength(1);
    expect(person.leads[0]).toMatchObject({ platform: 'whatsapp', telefono: '51911222301' });
    expect(person.leads[0].chats.map((c) => c._id)).toEqual([waChat]);
    expect(person.contactos.map((c) => c.nombre)).toEqual(['Vale (tienda)']);
    // by lead and by clean lead it is the same person
    expect((await ok<Person>('GET', `/people?leadId=${person.leads[0]._id}`))._id).toBe(person._id);
    expect((await ok<Person>('GET', `/people?cleanLeadId=${person._id}`)).leads[0]._id).toBe(person.leads[0]._id);
  });

  it('asks for exactly one of chatId, leadId or cleanLeadId, in Spanish', async () => {
    for (const query of ['', `?chatId=${waChat}&leadId=${waChat}`]) {
      const res = await call('GET', `/people${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Indica una sola de estas opciones');
    }
    expect((await call('GET', '/people?chatId=no-es-un-id')).json().errors.msg).toBeTruthy();
  });

  it('edits the name everywhere, normalises the phone and refuses a bad one in Spanish', async () => {
    const person = await personOfChat(waChat);
    const renamed = await ok<Person>('PUT', `/people/${person._id}`, { name: 'Valeria Mendoza Ríos', telefono: '911 222 302', email: ' Valeria@Gmail.com ' });
    expect(renamed).toMatchObject({ name: 'Valeria Mendoza Ríos', telefono: '51911222302', email: 'valeria@gmail.com' });
    // the person's own phone first, then the channel's
    expect(renamed.telefonos).toEqual(['51911222302', '51911222301']);
    expect(renamed.leads[0].name).toBe('Valeria Mendoza Ríos');
    const chat = await ok<{ chat: ChatSummary }>('GET', `/chats/${waChat}/messages`);
    expect(chat.chat.contactName).toBe('Valeria Mendoza Ríos');

    const bad = await call('PUT', `/people/${person._id}`, { telefono: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.details).toEqual([{ path: 'telefono', msg: expect.stringContaining('El teléfono no es válido') }]);
    const empty = await call('PUT', `/people/${person._id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Indica al menos un dato para cambiar');
    const email = await call('PUT', `/people/${person._id}`, { email: 'no-es-correo' });
    expect(email.statusCode).toBe(400);
    expect(email.body).toContain('Este campo debe ser un email válido');
  });

  it("writes the person's labels to the person and every lead, and refuses another company's label", async () => {
    const person = await personOfChat(waChat);
    const [label] = await t.sql<{ id: string }>('select id from mostrador_labels where company_id = $1 order by name limit 1', [peru]);
    const acmeLabel = await call('POST', '/mostrador-labels', { name: 'De Acme', color: '#28156C' }, s.acme, s.acmeCo);
    expect(acmeLabel.statusCode, acmeLabel.body).toBe(201);
    const labelled = await ok<Person>('PUT', `/people/${person._id}`, { mostradorLabels: [label.id] });
    expect(labelled.mostradorLabels).toEqual([label.id]);
    expect(labelled.leads[0].mostradorLabels).toEqual([label.id]);
    const inbox = await ok<{ payload: ChatSummary[] }>('GET', `/chats/get_chats?mostradorLabelId=${label.id}&filter=Valeria`);
    expect(inbox.payload.map((c) => c._id)).toContain(waChat);
    const refused = await call('PUT', `/people/${person._id}`, { mostradorLabels: [acmeLabel.json()._id] });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('No existe en esta compañía');
    expect((await personOfChat(waChat)).mostradorLabels).toEqual([label.id]);
  });
});

describe('duplicates and their merge', () => {
  let kept: Person;
  let waChat: string;
  let igChat: string;
  let fbChat: string;
  let igPerson: Person;
  let fbPerson: Person;
  let handMade: string;

  beforeAll(async () => {
    await whatsapp('51922333401', 'Rosa Quispe', 'Buenas, ¿siguen con el 2x1?');
    waChat = await whatsapp('51922333401', 'Rosa Quispe', 'Entonces quiero 4');
    await meta('instagram', PERU_IG, '17841000000922', 'Hola! vi su post del pack familiar');
    await meta('instagram', PERU_IG, '17841000000922', '¿Cuánto cuesta?');
    igChat = await meta('instagram', PERU_IG, '17841000000922', 'Mi número es el 922 333 401');
    fbChat = await meta('page', PERU_PAGE, '6100000000922', 'Hola, soy Rosa, pedí por WhatsApp');
    kept = await personOfChat(waChat);
    igPerson = await personOfChat(igChat);
    fbPerson = await personOfChat(fbChat);
    // Rosa gave her e-mail on Messenger; an agent typed the same one on her WhatsApp person
    await ok('PUT', `/people/${fbPerson._id}`, { email: 'rosa.quispe@hotmail.com' });
    await ok('PUT', `/people/${kept._id}`, { email: 'Rosa.Quispe@hotmail.com' });
    // a person typed by hand with her phone as it is written at home
    const res = await call('POST', '/clean-leads', { name: 'Rosa Q.', telefono: '51922333401', status: 'compra-realizada' });
    expect(res.statusCode, res.body).toBe(201);
    handMade = res.json()._id;
    await t.sql('update clean_leads set telefono = $1 where id = $2', ['922333401', handMade]);
  });

  it('finds the people sharing a phone (either form) or an e-mail, and others by search', async () => {
    const { payload } = await ok<{ payload: DuplicateCandidate[] }>('GET', `/people/${kept._id}/duplicates`);
    const byId = new Map(payload.map((d) => [d._id, d]));
    expect(byId.get(handMade)?.reasons).toEqual(['telefono']);
    expect(byId.get(fbPerson._id as string)).toMatchObject({ reasons: ['email'], platforms: ['facebook'], leads: 1, chats: 1, messages: 1 });
    // Instagram gave no phone: only a search finds her
    expect(byId.has(igPerson._id as string)).toBe(false);
    const found = await ok<{ payload: DuplicateCandidate[] }>('GET', `/people/${kept._id}/duplicates?filter=${encodeURIComponent(igPerson.name)}`);
    expect(found.payload.find((d) => d._id === igPerson._id)).toMatchObject({ reasons: ['busqueda'], platforms: ['instagram'], chats: 1, messages: 3 });
    expect(found.payload.some((d) => d._id === kept._id)).toBe(false);
  });

  it('merges a duplicate keeping every chat and message, counts and unread consistent', async () => {
    const allMessages = await count('select count(*) as n from chat_messages where company_id = $1', [peru]);
    const allChats = await count('select count(*) as n from chats where company_id = $1', [peru]);
    const unread = await count('select coalesce(sum(unread_count), 0) as n from chats where company_id = $1', [peru]);
    const people = (await ok<{ totalDocs: number }>('GET', '/clean-leads?limit=1')).totalDocs;
    const ownMessages = await messagesOf([waChat, igChat]);
    const [label] = await t.sql<{ id: string }>('select id from mostrador_labels where company_id = $1 order by name desc limit 1', [peru]);
    await ok('PUT', `/people/${igPerson._id}`, { mostradorLabels: [label.id] });

    const result = await ok<MergeResult>('POST', `/people/${kept._id}/merge`, { duplicateId: igPerson._id });
    expect(result).toMatchObject({ alreadyMerged: false, moved: { leads: 1, chats: 1, messages: 3 } });
    expect(result.msg).toBe('Contactos unidos: todo pasó a Rosa Quispe');
    // one person, two channels, both chats, every message
    expect(result.person._id).toBe(kept._id);
    expect(result.person.leads.map((l) => l.platform).sort()).toEqual(['instagram', 'whatsapp']);
    expect(result.person.leads.flatMap((l) => l.chats.map((c) => c._id)).sort()).toEqual([igChat, waChat].sort());
    expect(result.person.mostradorLabels).toContain(label.id);
    expect(result.person.details?.[0].message).toContain(`Unido con ${igPerson.name}`);
    expect(await messagesOf([waChat, igChat])).toBe(ownMessages);
    expect(await count('select count(*) as n from chat_messages where company_id = $1', [peru])).toBe(allMessages);
    expect(await count('select count(*) as n from chats where company_id = $1', [peru])).toBe(allChats);
    expect(await count('select coalesce(sum(unread_count), 0) as n from chats where company_id = $1', [peru])).toBe(unread);
    expect((await ok<{ totalDocs: number }>('GET', '/clean-leads?limit=1')).totalDocs).toBe(people - 1);
    // the duplicate's clean lead is gone; an old link leads to the kept person
    expect((await call('GET', `/clean-leads/${igPerson._id}`)).statusCode).toBe(404);
    expect(await ok<Person>('GET', `/people?cleanLeadId=${igPerson._id}`)).toMatchObject({ _id: kept._id, mergedFrom: igPerson._id });
    // the chat panel of either chat shows the same person, and the person's chats list both
    expect((await personOfChat(igChat))._id).toBe(kept._id);
    const chats = await ok<{ payload: ChatSummary[] }>('GET', `/chats/get_all_by_cleanlead_id?cleanLeadId=${kept._id}`);
    expect(chats.payload.map((c) => c._id).sort()).toEqual([igChat, waChat].sort());
  });

  it('a new message of the merged person lands in its chat of the kept person', async () => {
    const again = await meta('instagram', PERU_IG, '17841000000922', 'Sigo interesada');
    expect(again).toBe(igChat);
    const person = await personOfChat(igChat);
    expect(person._id).toBe(kept._id);
    expect(person.leads).toHaveLength(2);
    expect(await count('select count(*) as n from clean_leads where company_id = $1 and id = $2', [peru, igPerson._id])).toBe(0);
  });

  it('a second call for the same duplicate is harmless', async () => {
    const before = await count('select count(*) as n from chat_messages where company_id = $1', [peru]);
    const people = (await ok<{ totalDocs: number }>('GET', '/clean-leads?limit=1')).totalDocs;
    const retry = await ok<MergeResult>('POST', `/people/${kept._id}/merge`, { duplicateId: igPerson._id });
    expect(retry).toMatchObject({ alreadyMerged: true, moved: { leads: 1, chats: 1, messages: 3 }, msg: 'Estos contactos ya estaban unidos en Rosa Quispe' });
    expect(retry.person.leads).toHaveLength(2);
    expect(await count('select count(*) as n from chat_messages where company_id = $1', [peru])).toBe(before);
    expect((await ok<{ totalDocs: number }>('GET', '/clean-leads?limit=1')).totalDocs).toBe(people);
    expect(await count('select count(*) as n from person_merges where company_id = $1 and duplicate_id = $2', [peru, igPerson._id])).toBe(1);
  });

  it('two merges of the same duplicate at once: one merges, the other finds it done', async () => {
    const messages = await messagesOf([fbChat]);
    const results = await Promise.all([
      call('POST', `/people/${kept._id}/merge`, { duplicateId: fbPerson._id }),
      call('POST', `/people/${kept._id}/merge`, { duplicateId: fbPerson._id }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const bodies = results.map((r) => r.json() as MergeResult);
    expect(bodies.map((b) => b.alreadyMerged).sort()).toEqual([false, true]);
    for (const b of bodies) expect(b.moved).toEqual({ leads: 1, chats: 1, messages });
    const person = await personOfChat(fbChat);
    expect(person.leads.map((l) => l.platform).sort()).toEqual(['facebook', 'instagram', 'whatsapp']);
    expect(await messagesOf([fbChat])).toBe(messages);
    expect(await count('select count(*) as n from leads where company_id = $1 and clean_lead_id = $2', [peru, kept._id])).toBe(3);
  });

  it('the kept record wins; what it lacks comes from the duplicate', async () => {
    await t.sql('update clean_leads set status = $2, agente_id = null where id = $1', [kept._id, 'sin-asignar']);
    const [agente] = await t.sql<{ id: string }>('select id from agentes where company_id = $1 limit 1', [peru]);
    await t.sql('update clean_leads set agente_id = $2, opt_out = true where id = $1', [handMade, agente.id]);
    const result = await ok<MergeResult>('POST', `/people/${kept._id}/merge`, { duplicateId: handMade });
    expect(result.moved).toEqual({ leads: 0, chats: 0, messages: 0 });
    expect(result.person).toMatchObject({ name: 'Rosa Quispe', telefono: '51922333401', status: 'compra-realizada', agenteId: agente.id });
    const [row] = await t.sql<{ opt_out: boolean; email: string }>('select opt_out, email from clean_leads where id = $1', [kept._id]);
    expect(row).toEqual({ opt_out: true, email: 'rosa.quispe@hotmail.com' });
  });

  it("refuses another company's ids and itself, in Spanish, changing nothing", async () => {
    const acmeChat = await meta('page', ACME_PAGE, '6100000000999', 'Hola desde Acme');
    const acmePerson = await ok<Person>('GET', `/people?chatId=${acmeChat}`, undefined, s.acme, s.acmeCo);
    const into = await call('POST', `/people/${kept._id}/merge`, { duplicateId: acmePerson._id });
    expect(into.statusCode).toBe(404);
    expect(into.json().errors.msg).toBe('La persona que quieres unir no existe en esta compañía');
    const from = await call('POST', `/people/${acmePerson._id}/merge`, { duplicateId: kept._id });
    expect(from.statusCode).toBe(404);
    expect((await call('GET', `/people?chatId=${acmeChat}`)).statusCode).toBe(404);
    expect((await call('GET', `/people?cleanLeadId=${acmePerson._id}`)).statusCode).toBe(404);
    expect((await call('PUT', `/people/${acmePerson._id}`, { name: 'Intruso' })).statusCode).toBe(404);
    expect((await call('GET', `/people/${acmePerson._id}/duplicates`)).statusCode).toBe(404);
    expect(await ok<Person>('GET', `/people?chatId=${acmeChat}`, undefined, s.acme, s.acmeCo)).toMatchObject({ _id: acmePerson._id, name: acmePerson.name });
    expect((await personOfChat(waChat)).leads).toHaveLength(3);
    const self = await call('POST', `/people/${kept._id}/merge`, { duplicateId: kept._id });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors.msg).toBe('No se puede unir una persona consigo misma');
  });

  it("an agent who sees only their own people cannot read, list or merge another agent's", async () => {
    const ana = (await ok<{ agente: { _id: string } }>('GET', '/assignment/me')).agente._id;
    const other = await call('POST', '/clean-leads', { name: 'Rosa de Ana', telefono: '51922333401', status: 'sin-asignar', agenteId: ana });
    expect(other.statusCode, other.body).toBe(201);
    const hidden = other.json()._id as string;
    await t.sql('update clean_leads set agente_id = null where id = $1', [kept._id]);
    const asAgent = await call('GET', `/people?cleanLeadId=${hidden}`, undefined, s.agent);
    expect(asAgent.statusCode).toBe(404);
    const listed = await ok<{ payload: DuplicateCandidate[] }>('GET', `/people/${kept._id}/duplicates`, undefined, s.agent);
    expect(listed.payload.some((d) => d._id === hidden)).toBe(false);
    // the admin sees every person: the same phone makes it a candidate
    expect((await ok<{ payload: DuplicateCandidate[] }>('GET', `/people/${kept._id}/duplicates`)).payload.map((d) => d._id)).toContain(hidden);
    const merge = await call('POST', `/people/${kept._id}/merge`, { duplicateId: hidden }, s.agent);
    expect(merge.statusCode).toBe(404);
    expect((await call('GET', `/clean-leads/${hidden}`)).statusCode).toBe(200);
    expect((await call('PUT', `/people/${hidden}`, { name: 'Otra' }, s.agent)).statusCode).toBe(404);
  });

  it('needs leads · update', async () => {
    const victim = await call('POST', '/clean-leads', { name: 'Sin permiso', status: 'sin-asignar' });
    await t.sql(`delete from role_permissions where role = 'agent' and module = 'leads' and action = 'update'`);
    const refused = await call('POST', `/people/${kept._id}/merge`, { duplicateId: victim.json()._id }, s.agent);
    expect(refused.json().errors.code).toBe('FORBIDDEN');
    expect((await call('PUT', `/people/${kept._id}`, { name: 'X' }, s.agent)).json().errors.code).toBe('FORBIDDEN');
    expect((await call('GET', `/people?cleanLeadId=${kept._id}`, undefined, s.agent)).statusCode).toBe(200);
    expect((await call('GET', `/clean-leads/${victim.json()._id}`)).statusCode).toBe(200);
  });

  it('a merge that fails half-way leaves everything as it was', async () => {
    const chat = await whatsapp('51933444501', 'Falla Prueba', 'Hola');
    const doomed = await personOfChat(chat);
    await t.sql(`create or replace function person_merge_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'fallo de prueba'; end $$`);
    await t.sql(`create trigger person_merge_test_fail before delete on clean_leads for each row
      when (old.name = 'Falla Prueba') execute function person_merge_test_fail()`);
    try {
      const labels = (await personOfChat(waChat)).mostradorLabels;
      const res = await call('POST', `/people/${kept._id}/merge`, { duplicateId: doomed._id });
      expect(res.statusCode).toBe(500);
      const after = await personOfChat(chat);
      expect(after._id).toBe(doomed._id);
      expect(after.leads[0].chats.map((c) => c._id)).toEqual([chat]);
      expect(await messagesOf([chat])).toBe(1);
      expect((await personOfChat(waChat)).leads).toHaveLength(3);
      expect((await personOfChat(waChat)).mostradorLabels).toEqual(labels);
      expect(await count('select count(*) as n from person_merges where duplicate_id = $1', [doomed._id])).toBe(0);
    } finally {
      await t.sql('drop trigger person_merge_test_fail on clean_leads');
    }
    // once the cause is gone the same call merges
    expect((await ok<MergeResult>('POST', `/people/${kept._id}/merge`, { duplicateId: doomed._id })).alreadyMerged).toBe(false);
  });
});
