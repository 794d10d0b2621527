import { mailchimpMessages } from '@mostrador/contract';
import type { MailchimpAccount, MailchimpClient, MailchimpMember } from './client.js';
import { MailchimpError } from './client.js';

/**
 * The demo's Mailchimp (decision 0051): a key starting with «sandbox» never leaves the process.
 * Each audience id answers like Mailchimp from memory: a name, a few dozen members the same every
 * start, upserts and tags kept while the process lives. Like Mailchimp it refuses addresses at
 * example.com/.test as fake and an address with «olvidado» as forgotten, so a demo sync shows a
 * report with both outcomes. A key whose data center differs from the server prefix is refused as
 * Mailchimp refuses it.
 */
const audiences = new Map<string, { name: string; members: Map<string, MailchimpMember> }>();

const firstNames = ['Carmen', 'Jorge', 'Rosa', 'Luis', 'Ana', 'Pedro', 'Lucía', 'Miguel', 'Sofía', 'Diego', 'Valeria', 'Andrés'];
const lastNames = ['Vargas', 'Linares', 'Quispe', 'Torres', 'Huamán', 'Rojas', 'Flores', 'Chávez', 'Mendoza', 'Castillo'];
const domains = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.es'];
const demoTags = [['Cliente frecuente'], ['Newsletter semanal'], [], ['Mayorista', 'Newsletter semanal'], ['Cliente frecuente', 'Promociones']];
const statuses = ['subscribed', 'subscribed', 'subscribed', 'unsubscribed', 'subscribed', 'cleaned', 'subscribed', 'pending'];

const strip = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

function audienceOf(account: MailchimpAccount) {
  const dc = account.apiKey.slice(account.apiKey.lastIndexOf('-') + 1).toLowerCase();
  if (dc !== account.serverPrefix.trim().toLowerCase()) throw new MailchimpError('auth', mailchimpMessages.keyInvalid, 401, 'API Key Invalid');
  if (!/^[a-z0-9]{10}$/i.test(account.listId.trim())) throw new MailchimpError('not-found', mailchimpMessages.listMissing, 404, 'Resource Not Found');
  const id = account.listId.trim();
  let audience = audiences.get(id);
  if (!audience) {
    // deterministic members from the id: the same audience every start
    const seed = [...id].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 9973, 7);
    const members = new Map<string, MailchimpMember>();
    const count = 18 + (seed % 12);
    for (let i = 0; i < count; i++) {
      const first = firstNames[(seed + i * 5) % firstNames.length];
      const last = lastNames[(seed + i * 3) % lastNames.length];
      const email = `${strip(first)}.${strip(last)}${i > 9 ? i : ''}@${domains[(seed + i) % domains.length]}`;
      members.set(email, {
        email,
        fullName: `${first} ${last}`,
        phone: i % 3 === 0 ? `5199${String(1_000_000 + seed * 37 + i * 7919).slice(-7)}` : undefined,
        status: statuses[(seed + i) % statuses.length],
        tags: demoTags[(seed + i) % demoTags.length],
      });
    }
    audience = { name: `Audiencia ${id.slice(0, 4).toUpperCase()} (prueba)`, members };
    audiences.set(id, audience);
  }
  return audience;
}

function refuseFake(email: string) {
  const lower = email.trim().toLowerCase();
  if (/@(example\.(com|org|net)|[^@]+\.test)$/.test(lower)) {
    throw new MailchimpError('member', 'Mailchimp considera el correo inválido o falso', 400, 'Invalid Resource');
  }
  if (lower.includes('olvidado')) {
    throw new MailchimpError('member', 'Pidió ser olvidado en Mailchimp: solo puede volver a suscribirse él mismo, desde un formulario de la audiencia', 400, 'Forgotten Email Not Subscribed');
  }
}

export function createSandboxMailchimp(): MailchimpClient {
  return {
    async ping(account, counter) {
      if (counter) counter.requests++;
      const dc = account.apiKey.slice(account.apiKey.lastIndexOf('-') + 1).toLowerCase();
      if (dc !== account.serverPrefix.trim().toLowerCase()) throw new MailchimpError('auth', mailchimpMessages.keyInvalid, 401, 'API Key Invalid');
    },
    async audience(account, counter) {
      if (counter) counter.requests++;
      const audience = audienceOf(account);
      return { id: account.listId, name: audience.name, members: audience.members.size };
    },
    async upsertMember(account, member, counter) {
      if (counter) counter.requests++;
      const audience = audienceOf(account);
      refuseFake(member.email);
      const email = member.email.trim().toLowerCase();
      const known = audience.members.get(email);
      const fullName = [member.firstName, member.lastName].filter(Boolean).join(' ') || known?.fullName;
      const status = known?.status ?? member.statusIfNew ?? 'subscribed';
      audience.members.set(email, { email, fullName, phone: member.phone ?? known?.phone, status, tags: known?.tags ?? [] });
      return { status };
    },
    async tagMember(account, email, tags, counter) {
      if (counter) counter.requests++;
      const audience = audienceOf(account);
      const known = audience.members.get(email.trim().toLowerCase());
      if (!known) throw new MailchimpError('member', 'Mailchimp no encontró al contacto para etiquetarlo', 404, 'Resource Not Found');
      known.tags = [...new Set([...known.tags, ...tags])];
    },
    async members(account, offset, count, counter) {
      if (counter) counter.requests++;
      const all = [...audienceOf(account).members.values()];
      return { total: all.length, members: all.slice(offset, offset + Math.min(count, 1000)).map((m) => ({ ...m, tags: [...m.tags] })) };
    },
  };
}
