import type { ChatInboxQuery, GenialOrderKind, MetricName, MetricsFilter, SendCheckInput } from '@mostrador/contract';

/**
 * Every react-query key of the web app, declared here and nowhere else (issue 27): a screen that
 * invalidates another's data finds the key it must name in this file, and two screens that share
 * a cache entry share it by the same factory. A key's value is its cache identity: changing one
 * here changes what every screen that uses it reads and invalidates.
 *
 * Query-key factory (STYLE.md, after Medusa): `[key, 'list', query]`, `[key, 'detail', id]`.
 * Mutations invalidate `lists()`; switching company invalidates everything.
 */
export function createQueryKeys<K extends string>(key: K) {
  return {
    all: [key] as const,
    lists: () => [key, 'list'] as const,
    list: <Q>(query: Q) => [key, 'list', query] as const,
    details: () => [key, 'detail'] as const,
    detail: (id: string | number) => [key, 'detail', id] as const,
  };
}

export type QueryKeys<K extends string = string> = ReturnType<typeof createQueryKeys<K>>;

const resourceKeyCache = new Map<string, QueryKeys>();

/** The keys of a resource by its API key (`brands`, `equipos-de-ventas`): one factory for all of them. */
export function resourceKeys(key: string): QueryKeys {
  let keys = resourceKeyCache.get(key);
  if (!keys) {
    keys = createQueryKeys(key);
    resourceKeyCache.set(key, keys);
  }
  return keys;
}

export const queryKeys = {
  health: createQueryKeys('health'),
  version: createQueryKeys('version'),
  registrationToken: createQueryKeys('register-corporation'),
  users: resourceKeys('users'),
  companies: resourceKeys('companies'),
  permissions: createQueryKeys('permissions'),
  /** A group's members: `['groups', 'detail', id, 'users']`. */
  groupMembers: (groupId: string) => [...resourceKeys('groups').detail(groupId), 'users'] as const,
};

type CompanyId = string | null;

// Sign-in, the session's agent, roles
/** `['my-agent', 'detail', companyId]`: the signed-in user's agent in the current company (decision 0025). */
export const myAgentKeys = createQueryKeys('my-agent');
export const rolesKeys = createQueryKeys('roles');

// Chat: the inbox, threads, the composer, alerts. Under `chats` (the resource's key), so anything
// that refreshes chats refreshes these.
const chatBase = createQueryKeys('chats');
export const chatKeys = {
  all: chatBase.all,
  inboxes: () => [...chatBase.all, 'inbox'] as const,
  inbox: (companyId: CompanyId, filters: Omit<ChatInboxQuery, 'page' | 'limit'>) => [...chatBase.all, 'inbox', { companyId, ...filters }] as const,
  threads: () => [...chatBase.all, 'thread'] as const,
  thread: (chatId: string, companyId: CompanyId) => [...chatBase.all, 'thread', chatId, companyId] as const,
  /** GET /chats/:id: one chat with its analysis (decision 0092). */
  detail: (chatId: string, companyId: CompanyId) => [...chatBase.all, 'detail', chatId, companyId] as const,
  person: (cleanLeadId: string, companyId: CompanyId) => [...chatBase.all, 'person', cleanLeadId, companyId] as const,
  people: () => [...chatBase.all, 'person'] as const,
  byLead: (leadId: string | undefined, platform: string | undefined, companyId: CompanyId) => [...chatBase.all, 'by-lead', leadId, platform, companyId] as const,
  /** The inbox tabs' counts and the «Estado» select's (decision 0076): the filters, the view and the status. */
  countsAll: () => [...chatBase.all, 'counts'] as const,
  counts: (companyId: CompanyId, filters: object) => [...chatBase.all, 'counts', { companyId, ...filters }] as const,
  templates: (chatId: string, companyId: CompanyId) => [...chatBase.all, 'templates', chatId, companyId] as const,
  /** A chat's scheduled messages (decision 0079). */
  scheduled: (chatId: string, companyId: CompanyId) => [...chatBase.all, 'scheduled', chatId, companyId] as const,
  /** The composer's «Productos» picker (decision 0085): the company's products for a chat. */
  products: (chatId: string, companyId: CompanyId, q: string, inStock: boolean) => [...chatBase.all, 'products', chatId, companyId, { q, inStock }] as const,
};
export const composerKeys = {
  state: (chatId: string, companyId: CompanyId) => [...chatKeys.all, 'state', chatId, companyId] as const,
  states: () => [...chatKeys.all, 'state'] as const,
  unread: (companyId: CompanyId) => [...chatKeys.all, 'unread', companyId] as const,
  quickReplies: (companyId: CompanyId) => ['respuestas-rapidas', 'composer', companyId] as const,
};

// People and leads
/** The person of a chat, lead or clean lead, and their duplicates. */
export const personKeys = {
  all: ['people'] as const,
  /** `key`: `{ chatId }`, `{ leadId }` or `{ cleanLeadId }` (features/person/api.ts). */
  person: (companyId: CompanyId, key: object) => ['people', companyId, 'by', key] as const,
  duplicates: (companyId: CompanyId, id: string, filter: string) => ['people', companyId, 'duplicates', id, filter] as const,
};
/** Under the leads' keys, so a lead moved or assigned refreshes the summary too. */
export const leadQueryKeys = {
  summary: (query: object) => [...resourceKeys('leads').all, 'summary', query] as const,
  /** The pipeline board (/lead/tablero, decision 0099): under the leads, so a lead saved anywhere refreshes it. */
  boards: () => [...resourceKeys('leads').all, 'board'] as const,
  board: (companyId: CompanyId, filters: object) => [...resourceKeys('leads').all, 'board', { companyId, ...filters }] as const,
  funnel: (companyId: CompanyId, range: object) => [...resourceKeys('leads').all, 'funnel', { companyId, ...range }] as const,
  /** The leads a template's preview fills its variables from (under the leads' lists: a lead saved refreshes it). */
  templatePreview: (companyId: CompanyId, text: string) => ['leads', 'list', { companyId, templatePreview: text }] as const,
};
export const frequencyKeys = {
  preference: (token: string) => ['dias-frecuencia', token] as const,
};

// Agents and their routing: under `agentes`, so anything that refreshes agents refreshes these
export const agentKeys = {
  workload: (companyId: CompanyId) => [...resourceKeys('agentes').all, 'workload', companyId] as const,
  settings: (companyId: CompanyId) => [...resourceKeys('agentes').all, 'auto', companyId] as const,
  alertLinks: (companyId: CompanyId) => ['agentes', 'alert-links', companyId] as const,
};

// Channels, providers and their failed events
export const channelKeys = createQueryKeys('channels');
export const deadLetterKeys = createQueryKeys('webhook-dead-letters');
/** `['meta-catalog', 'list', companyId]`: the WhatsApp line's Meta catalogue and its sync (decision 0086). */
export const metaCatalogKeys = createQueryKeys('meta-catalog');
/** `['api-keys', 'list', companyId]`: the company's API keys (/configuracion/api). */
export const apiKeyKeys = createQueryKeys('api-keys');
/** `['webhook-subscriptions', …]`: outbound webhooks' subscriptions (/configuracion/webhooks) and a subscription's deliveries. */
const webhookSubscriptionBase = createQueryKeys('webhook-subscriptions');
export const webhookSubscriptionKeys = {
  ...webhookSubscriptionBase,
  /** `['webhook-subscriptions', 'deliveries', companyId, id]`: a subscription's deliveries, refreshed with the list. */
  deliveries: (companyId: CompanyId, id: string) => [...webhookSubscriptionBase.all, 'deliveries', companyId, id] as const,
};
export const auditLogKeys = createQueryKeys('audit-log');
/** `['notifications', 'list', {companyId, userId}]`: the caller's notices under the header's bell (decision 0075). */
export const notificationKeys = createQueryKeys('notifications');
/** `['automation-rules', …]`: the company's automation rules (/automatizaciones), a rule's runs and the chats to try one on. */
const automationBase = createQueryKeys('automation-rules');
export const automationKeys = {
  ...automationBase,
  /** `['automation-rules', 'runs', companyId, id]`: a rule's runs, refreshed with the list. */
  runs: (companyId: CompanyId, id: string) => [...automationBase.all, 'runs', companyId, id] as const,
  /** `['automation-rules', 'templates', companyId]`: the approved WhatsApp templates a rule may send. */
  templates: (companyId: CompanyId) => [...automationBase.all, 'templates', companyId] as const,
  /** `['automation-rules', 'settings', companyId]`: the company's automation settings (the per-chat hourly cap of rule messages). */
  settings: (companyId: CompanyId) => [...automationBase.all, 'settings', companyId] as const,
  /** The chats the test picker offers for a search (under the chats' keys: a chat that changes refreshes them). */
  testChats: (companyId: CompanyId, search: string) => [...chatKeys.all, 'automation-test', companyId, search] as const,
};
/** Under the resource's keys, so saving a bot refreshes its state too. */
export const botKeys = {
  status: (companyId: CompanyId) => [...resourceKeys('bots').all, 'status', companyId] as const,
};
export const telegramKeys = {
  settings: ['telegram', 'settings'] as const,
  executions: (routineId: string) => ['telegram', 'executions', routineId] as const,
  /** `settled`: the group's check input once typing stopped (features/telegram/group-check.tsx). */
  groupCheck: (settled: unknown) => ['telegram', 'group-check', settled] as const,
};
/** Under the telefonos resource's keys: saving a phone refreshes its Google state too. */
export const googleKeys = {
  all: [...resourceKeys('telefonos').all, 'google'] as const,
  phones: (companyId: CompanyId) => [...resourceKeys('telefonos').all, 'google', 'phones', companyId] as const,
  phone: (id: string, companyId: CompanyId) => [...resourceKeys('telefonos').all, 'google', 'phone', id, companyId] as const,
  leads: (id: string, companyId: CompanyId, page: number, q: string) => [...resourceKeys('telefonos').all, 'google', 'leads', id, companyId, page, q] as const,
};
/** Under the resource's, so saving a form (its mapping, its keys) refreshes them too. */
export const gravityKeys = {
  status: (id: string, companyId: CompanyId) => [...resourceKeys('gravity-forms').all, 'status', id, companyId] as const,
  fields: (id: string, companyId: CompanyId) => [...resourceKeys('gravity-forms').all, 'fields', id, companyId] as const,
  /** Every form's entries (`allEntries`), or one company's and form's. */
  allEntries: () => [...resourceKeys('gravity-forms').all, 'entries'] as const,
  entries: (companyId: CompanyId, formId?: string) => [...resourceKeys('gravity-forms').all, 'entries', companyId, formId ?? 'all'] as const,
};
/** Under the resources they show, so a generic refresh of `mailchimps` refreshes them too. */
export const mailchimpKeys = {
  accounts: (companyId: CompanyId) => [...resourceKeys('mailchimps').all, 'accounts', companyId] as const,
  connection: (id: string, companyId: CompanyId) => [...resourceKeys('mailchimps').all, 'connection', id, companyId] as const,
  syncs: (companyId: CompanyId) => [...resourceKeys('mailchimps').all, 'syncs', companyId] as const,
  report: (id: string, outcome: string, page: number, companyId: CompanyId) => [...resourceKeys('mailchimps').all, 'report', id, outcome, page, companyId] as const,
};
export const facebookLabelKeys = {
  people: (companyId: CompanyId) => [...resourceKeys('facebook-labels').all, 'people', companyId] as const,
  names: (companyId: CompanyId) => [...resourceKeys('facebook-labels').all, 'names', companyId] as const,
};
/** Under the rules' resource, so editing a rule refreshes its log too. */
export const commentKeys = {
  replies: (ruleId: string, companyId: CompanyId) => [...resourceKeys('comment-rules').all, 'replies', ruleId, companyId] as const,
};
export const audienceKeys = {
  overview: (companyId: CompanyId) => [...resourceKeys('facebook-audiences').lists(), 'overview', companyId] as const,
  sends: (companyId: CompanyId, audienceId: string) => [...resourceKeys('facebook-audiences').lists(), 'sends', companyId, audienceId] as const,
};

// Sending: massive messages, campaigns, templates, histories
export const massKeys = {
  checks: () => ['sends', 'check'] as const,
  check: (companyId: CompanyId, input: SendCheckInput | null) => ['sends', 'check', companyId, JSON.stringify(input)] as const,
  campaignCheck: (companyId: CompanyId, campaignId: string) => ['marketing-campaigns', 'check', companyId, campaignId] as const,
  send: (sendId: string) => ['sends', sendId] as const,
  /** A chunk's (a send's) recipients report; the report's query is appended. */
  sendRecipients: (sendId: string) => ['sends', sendId, 'recipients'] as const,
  templates: (companyId: CompanyId) => ['whatsapp-templates', 'approved', companyId] as const,
  imagina: (companyId: CompanyId) => ['imagina_template_messages', 'all', companyId] as const,
  segmentsWithSize: (companyId: CompanyId) => ['marketing-segments', 'with-size', companyId] as const,
  /** A segment's size for its filters (`JSON.stringify`-ed): the segments screen and the send share it. */
  segmentPreview: (filtersJson: string) => ['segment-preview', filtersJson] as const,
};
export const campaignKeys = {
  plan: (campaignId: string, companyId: CompanyId) => [...resourceKeys('marketing-campaigns').detail(campaignId), 'plan', companyId] as const,
  chunkDetail: (campaignId: string, chunkPage: number, companyId: CompanyId) =>
    [...resourceKeys('marketing-campaigns').detail(campaignId), 'chunk', chunkPage, companyId] as const,
  recipients: (sendId: string, query: { status?: string; page: number; limit: number }) => ['sends', sendId, 'recipients', query] as const,
};
export const templateKeys = createQueryKeys('whatsapp-templates');
export const massiveLogKeys = resourceKeys('massive-messages-logs');
export const historyKeys = {
  send: (logId: string) => [...massiveLogKeys.detail(logId), 'send'] as const,
  recipients: (logId: string) => [...massiveLogKeys.detail(logId), 'recipients'] as const,
  templateNames: (companyId: CompanyId) => ['whatsapp-templates', 'names', companyId] as const,
};
export const driveKeys = {
  all: ['drive'] as const,
  /** `q`: the picker's folder, kind, search and page (features/drive/api.ts's DriveQuery). */
  files: (q: object) => ['drive', 'files', q] as const,
  folders: ['drive', 'folders'] as const,
};

// Commerce: orders, e-commerce, marketplaces, invoices
/** The orders' keys: the generic list's (`['orders', 'list', …]`) and the detail's. */
export const orderKeys = resourceKeys('orders');
/** Under the resources they show, so a generic refresh of `ecommerces` refreshes them too. */
export const ecommerceKeys = {
  runs: (companyId: CompanyId) => [...resourceKeys('ecommerces').all, 'sync-runs', companyId] as const,
  run: (id: string, companyId: CompanyId) => [...resourceKeys('ecommerces').all, 'sync-run', id, companyId] as const,
  crossover: (country: string, sku: string, companyId: CompanyId) => [...resourceKeys('ecommerces').all, 'crossover', country, sku, companyId] as const,
  variations: (productId: string, companyId: CompanyId) => [...resourceKeys('ecommerces-variations').lists(), 'of', productId, companyId] as const,
  // under lists(): a category saved in the form dialog refreshes the tree
  categoryTree: (companyId: CompanyId) => [...resourceKeys('ecommerces-categories').lists(), 'tree', companyId] as const,
  storeConnection: (storeId: string, companyId: CompanyId) => [...resourceKeys('woocommerces').all, 'connection', storeId, companyId] as const,
};
export const marketplaceKeys = {
  sources: resourceKeys('marketplace-sources'),
  products: resourceKeys('marketplace-products'),
  variations: resourceKeys('marketplace-variations'),
  orders: resourceKeys('marketplace-orders'),
  runs: createQueryKeys('marketplace-sync-runs'),
  bulk: createQueryKeys('marketplace-bulk'),
  items: (orderId: string) => [...resourceKeys('marketplace-orders').detail(orderId), 'items'] as const,
};
export const genialKeys = {
  all: ['genial'] as const,
  invoice: (kind: GenialOrderKind, orderId: string) => ['genial', 'invoice', kind, orderId] as const,
  settings: ['genial', 'settings'] as const,
};

// Metrics and the GPT tracker
export const metricKeys = {
  all: ['metrics'] as const,
  one: (companyId: CompanyId, name: MetricName, filter: MetricsFilter) => ['metrics', companyId, name, filter] as const,
  adAccount: (companyId: CompanyId) => ['meta-ads', companyId, 'account'] as const,
  team: (companyId: CompanyId, query: { from: string; to: string; groupBy: string }) => ['metrics', companyId, 'team', query] as const,
  teamSettings: (companyId: CompanyId) => ['metrics', companyId, 'team-settings'] as const,
  attribution: (companyId: CompanyId, params: object) => ['metrics', companyId, 'attribution', params] as const,
  attributionChats: (companyId: CompanyId, params: object) => ['metrics', companyId, 'attribution-chats', params] as const,
  attributionSettings: (companyId: CompanyId) => ['metrics', companyId, 'attribution-settings'] as const,
};
/** CSAT (decision 0100): the survey's settings, and the report per agent (under the metrics' key). */
export const csatKeys = {
  settings: (companyId: CompanyId) => ['csat', companyId, 'settings'] as const,
  report: (companyId: CompanyId, from: string, to: string) => ['metrics', companyId, 'csat', { from, to }] as const,
};
/** Keys carry the company: switching company never shows the other one's figures. */
export const llmKeys = {
  all: ['llm'] as const,
  summaries: () => ['llm', 'summary'] as const,
  summary: (companyId: CompanyId | undefined, range: { from?: string; to?: string }) => ['llm', 'summary', companyId, range] as const,
  settings: (companyId: CompanyId | undefined) => ['llm', 'settings', companyId] as const,
};
