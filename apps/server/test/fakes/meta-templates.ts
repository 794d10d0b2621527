import type { FakeGraphRoute } from './meta.js';
import { wamid } from './meta.js';

/**
 * A fake of Meta's WhatsApp template API on the fake Graph server (tests never reach the
 * internet), enforcing what Meta enforces (decision 0038):
 *
 * - `GET /v21.0/{waba}/message_templates?fields=…&limit=n[&after=cursor]` → `{data, paging:{cursors:{before, after}, next?}}`,
 *   pages of at most `pageSize` (or `limit` when smaller);
 * - `POST /v21.0/{waba}/message_templates` → `{id, status:'PENDING', category}`; Meta's refusals:
 *   a bad name, a duplicate name + language (100 / 2388024), variables without examples
 *   (100 / 2388043), more than 1024 characters in the body;
 * - `DELETE /v21.0/{waba}/message_templates?name=…` → `{success:true}`;
 * - a template send (`POST /{phone-number-id}/messages` with `type: template`): the template
 *   must exist approved in that language (132001), with as many body parameters as variables
 *   (132000), not paused (132015) nor disabled (132016).
 *
 * - the Resumable Upload API of a media header's example: `POST /v21.0/{app-id}/uploads?file_name&file_length&file_type`
 *   → `{id:'upload:…?sig=…'}`, then `POST /v21.0/upload:…` with `Authorization: OAuth <token>`,
 *   `file_offset: 0` and the bytes → `{h}`.
 *
 * Every call must carry the token (`Bearer`, or `OAuth` for an upload session). A test changes a template's status as Meta's review would (`setStatus`), and makes the next
 * template call fail (`failNext`: 429 / 80008, 130429, anything), slowed (`delayMs`).
 */
export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string;
  components: Array<{ type: string; format?: string; text?: string; example?: Record<string, unknown>; buttons?: object[] }>;
}

export interface FakeTemplates {
  route: FakeGraphRoute;
  /** Templates per WABA id. */
  accounts: Map<string, FakeTemplate[]>;
  /** How many templates a page holds at most. */
  pageSize: number;
  /** Template sends received (the `template` object of each). */
  sends: Array<{ to: string; template: { name: string; language: { code: string }; components?: Array<{ type: string; parameters: Array<Record<string, unknown>> }> } }>;
  add(waba: string, template: Omit<FakeTemplate, 'id'> & { id?: string }): FakeTemplate;
  setStatus(waba: string, name: string, status: string, rejectedReason?: string): void;
  failNext(status: number, error: { message: string; code?: number; error_subcode?: number; type?: string }): void;
  /** Example files received through the upload API: name, type, declared and received length, the handle given. */
  uploads: Array<{ fileName: string; fileType: string; fileLength: number; received: number; handle: string }>;
}

let seq = 0;
const nextId = () => `7${String(Date.now()).slice(-8)}${String(seq++).padStart(6, '0')}`;
const countVars = (text = '') => {
  const n = [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
  return n.length ? Math.max(...n) : 0;
};

export function fakeTemplates(token: string): FakeTemplates {
  const accounts = new Map<string, FakeTemplate[]>();
  const failures: Array<{ status: number; error: object }> = [];
  const sends: FakeTemplates['sends'] = [];
  const uploads: FakeTemplates['uploads'] = [];
  const sessions = new Map<string, { fileName: string; fileType: string; fileLength: number }>();
  const state: FakeTemplates = {
    accounts,
    pageSize: 25,
    sends,
    uploads,
    add(waba, template) {
      const t = { ...template, id: template.id ?? nextId() };
      accounts.set(waba, [...(accounts.get(waba) ?? []), t]);
      return t;
    },
    setStatus(waba, name, status, rejectedReason) {
      for (const t of accounts.get(waba) ?? []) {
        if (t.name !== name) continue;
        t.status = status;
        if (rejectedReason) t.rejected_reason = rejectedReason;
        else delete t.rejected_reason;
      }
    },
    failNext(status, error) {
      failures.push({ status, error });
    },
    route({ method, path, body, headers }, { json, graphError }) {
      const [pathname, search = ''] = path.split('?');
      const query = new URLSearchParams(search);
      const denied = (scheme: 'Bearer' | 'OAuth') => {
        if (headers.authorization === `${scheme} ${token}`) return false;
        graphError(401, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
        return true;
      };
      const startUpload = pathname.match(/^\/v21\.0\/(\d+)\/uploads$/);
      if (startUpload && method === 'POST') {
        if (denied('Bearer')) return true;
        const fileLength = Number(query.get('file_length'));
        const fileType = query.get('file_type') ?? '';
        if (!fileLength || !/^(image\/(jpeg|png)|video\/mp4|application\/pdf)$/.test(fileType)) {
          graphError(400, { message: '(#100) Invalid parameter', code: 100, error_user_msg: 'Tipo de archivo no admitido' });
          return true;
        }
        const id = `upload:MTphdHRhY2htZW50${sessions.size}`;
        sessions.set(id, { fileName: query.get('file_name') ?? '', fileType, fileLength });
        json(200, { id: `${id}?sig=ARZfake${sessions.size}` });
        return true;
      }
      const upload = pathname.match(/^\/v21\.0\/(upload:[^/?]+)$/);
      if (upload && method === 'POST') {
        if (denied('OAuth')) return true;
        const session = sessions.get(upload[1]);
        if (!session || headers.file_offset !== '0' || !query.get('sig')) {
          graphError(400, { message: '(#100) Invalid upload session', code: 100 });
          return true;
        }
        const handle = `4::aW1hZ2UvanBlZw==:ARa${uploads.length}fakeHandle`;
        const received = Buffer.byteLength(typeof body === 'string' ? body : JSON.stringify(body ?? ''));
        uploads.push({ ...session, received, handle });
        json(200, { h: handle });
        return true;
      }
      const templates = pathname.match(/^\/v21\.0\/(\d+)\/message_templates$/);
      const send = pathname.match(/^\/v21\.0\/(\d+)\/messages$/);
      const b = body as { type?: string; to?: string; template?: FakeTemplates['sends'][number]['template'] } | undefined;
      if (!templates && !(send && method === 'POST' && b?.type === 'template')) return false;
      if (denied('Bearer')) return true;
      const failure = failures.shift();
      if (failure) {
        graphError(failure.status, failure.error);
        return true;
      }

      if (send && b?.template) {
        const t = [...accounts.values()].flat().find((x) => x.name === b.template?.name && x.language === b.template?.language?.code);
        if (!t) {
          graphError(404, { message: '(#132001) Template name does not exist in the translation', code: 132001, type: 'OAuthException' });
          return true;
        }
        if (t.status === 'PAUSED') {
          graphError(400, { message: '(#132015) Template is Paused', code: 132015 });
          return true;
        }
        if (t.status === 'DISABLED') {
          graphError(400, { message: '(#132016) Template is Disabled', code: 132016 });
          return true;
        }
        if (t.status !== 'APPROVED') {
          graphError(404, { message: '(#132001) Template name does not exist in the translation', code: 132001 });
          return true;
        }
        const expected = countVars(t.components.find((c) => c.type === 'BODY')?.text);
        const given = b.template.components?.find((c) => c.type === 'body')?.parameters.length ?? 0;
        if (expected !== given) {
          graphError(400, { message: `(#132000) Number of parameters does not match the expected number of params: body: number of localizable_params (${given}) does not match the expected number of params (${expected})`, code: 132000 });
          return true;
        }
        sends.push({ to: b.to ?? '', template: b.template });
        json(200, { messaging_product: 'whatsapp', contacts: [{ input: b.to, wa_id: b.to }], messages: [{ id: wamid(), message_status: 'accepted' }] });
        return true;
      }

      const waba = (templates as RegExpMatchArray)[1];
      const list = accounts.get(waba) ?? [];
      if (method === 'GET') {
        const limit = Math.min(Number(query.get('limit') ?? 25) || 25, state.pageSize);
        const after = query.get('after');
        const start = after ? Number(Buffer.from(after, 'base64url').toString()) : 0;
        const data = list.slice(start, start + limit);
        const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
        const more = start + limit < list.length;
        json(200, {
          data,
          paging: { cursors: { before: cursor(start), after: cursor(start + data.length) }, ...(more ? { next: `https://graph.facebook.com/v21.0/${waba}/message_templates?after=${cursor(start + data.length)}` } : {}) },
        });
        return true;
      }
      if (method === 'POST') {
        const t = body as Omit<FakeTemplate, 'id' | 'status'>;
        if (!/^[a-z0-9_]{1,512}$/.test(t?.name ?? '')) {
          graphError(400, { message: 'Invalid parameter', code: 100, error_subcode: 2388001, error_user_msg: 'El nombre de la plantilla no es válido' });
          return true;
        }
        if (list.some((x) => x.name === t.name && x.language === t.language)) {
          graphError(400, { message: 'Invalid parameter', code: 100, error_subcode: 2388024, error_user_msg: 'Ya existe contenido en este idioma' });
          return true;
        }
        const bodyPart = t.components?.find((c) => c.type === 'BODY');
        if (!bodyPart?.text || bodyPart.text.length > 1024) {
          graphError(400, { message: 'Invalid parameter', code: 100, error_subcode: 2388040, error_user_msg: 'El cuerpo falta o es demasiado largo' });
          return true;
        }
        const vars = countVars(bodyPart.text);
        const examples = (bodyPart.example?.body_text as string[][] | undefined)?.[0] ?? [];
        if (vars && examples.length !== vars) {
          graphError(400, { message: 'Invalid parameter', code: 100, error_subcode: 2388043, error_user_msg: 'Faltan los ejemplos de las variables' });
          return true;
        }
        const created = state.add(waba, { name: t.name, language: t.language, category: t.category, status: 'PENDING', components: t.components });
        json(200, { id: created.id, status: 'PENDING', category: t.category });
        return true;
      }
      if (method === 'DELETE') {
        const name = query.get('name');
        if (!list.some((x) => x.name === name)) {
          graphError(404, { message: `Template name ${name} not found`, code: 100, error_subcode: 2593002 });
          return true;
        }
        accounts.set(
          waba,
          list.filter((x) => x.name !== name),
        );
        json(200, { success: true });
        return true;
      }
      return false;
    },
  };
  return state;
}
