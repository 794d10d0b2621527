/**
 * The server's layers (decision 0070), checked by `npm run graph:server`.
 *
 * A file may import its own layer and any layer below it, never one above: the layers run from
 * the utilities up to the process entry points, and the domain modules are themselves layered
 * (foundation ← conversation core ← features ← provider inbox). Inside a layer anything goes
 * except a cycle between two modules. The few imports that still run up a layer are listed one
 * by one in `allowances`, each with its reason; a new one is a decision, not a drive-by import.
 */
const src = '^apps/server/src/';
const modules = (names) => `${src}modules/(${names.join('|')})/`;

/** Lowest first. */
const layers = [
  {
    name: 'base',
    comment: 'utilities, the database and its schema, the job queue, mail, the settings',
    path: [`${src}(lib|db|jobs|mail)/`, `${src}config\\.ts$`, `${src}spine/(dispatcher|outbox|retention)\\.ts$`],
  },
  { name: 'integrations', comment: "provider clients and their sandboxes: speak a provider's API, know no domain", path: [`${src}integrations/`] },
  {
    name: 'platform',
    comment: 'the HTTP and tenancy machinery every module builds on: auth, row scope, guards, the resource repository',
    path: [`${src}(plugins|resources)/`],
  },
  {
    name: 'foundation',
    comment: 'the company and its people: accounts, sessions, users, settings, files, channels, leads',
    path: [modules(['leads', 'companies', 'drive', 'auth', 'users', 'corporations', 'system', 'channels', 'groups', 'contact-frequency', 'events', 'api-keys', 'webhook-subscriptions', 'audit-log', 'notifications'])],
  },
  {
    name: 'core',
    comment: 'conversations and what hangs off them: ingestion, chats, templates, people, orders, assignment',
    path: [modules(['conversations', 'chats', 'whatsapp-templates', 'people', 'orders', 'assignment'])],
  },
  {
    name: 'features',
    comment: 'what builds on the core: analysis, bots, comments, form entries, sending, syncs, marketplaces, metrics, automation rules, business hours, the reply assistant, the sales recovery, payments, the pipeline board, the CSAT surveys, the team response times, attribution, the Conversions API',
    path: [
      modules([
        'analysis',
        'llm',
        'dialogflow',
        'facebook-comments',
        'forms',
        'sending',
        'mailchimp',
        'marketplace',
        'metrics',
        'telegram',
        'genial',
        'ecommerce',
        'google-people',
        'meta-catalog',
        'facebook-labels',
        'meta-ads',
        'automation',
        'business-hours',
        'assistant',
        'recovery',
        'payments',
        'lead-board',
        'csat',
        'team-metrics',
        'attribution',
        'conversions-api',
      ]),
    ],
  },
  {
    name: 'inbox',
    comment: 'provider events stored, verified and dispatched down (webhooks), and the form feeds that use the same store',
    path: [modules(['webhooks', 'gravity-forms'])],
  },
  {
    name: 'listeners',
    comment: "what follows each domain event (decision 0068): the spine's listeners, which call down into the modules",
    path: [`${src}spine/listeners\\.ts$`],
  },
  {
    name: 'entry',
    comment: 'the app and the processes: build the services and register the routes; the command line; the demo seed',
    path: [`${src}(app|boot|server|worker)\\.ts$`, `${src}(cli|seed)/`],
  },
];

/**
 * Imports that run up a layer, at most 3 (issue 27), each by its exact path: [from, to, reason].
 */
const allowances = [
  [
    'modules/drive/routes.ts',
    'seed/assets/demo-drive.ts',
    "the demo's Drive files get their bytes in this server's storage, which only the Drive routes build; the seed itself runs before any storage exists",
  ],
];

const exact = (file) => `^apps/server/src/${file.replace(/\./g, '\\.')}$`;
const above = (i) => layers.slice(i + 1).flatMap((l) => l.path);

const upRules = layers.slice(0, -1).flatMap((layer, i) => {
  const mine = allowances.filter(([from]) => layer.path.some((p) => new RegExp(p).test(`apps/server/src/${from}`)));
  const rules = [
    {
      name: `layer-${layer.name}`,
      comment: `${layer.name} (${layer.comment}) imports nothing above it`,
      severity: 'error',
      from: { path: layer.path, pathNot: mine.map(([from]) => exact(from)) },
      to: { path: above(i) },
    },
  ];
  for (const [from, to, reason] of mine) {
    rules.push({
      name: `layer-${layer.name}`,
      comment: `${layer.name} imports nothing above it; allowed: ${to} (${reason})`,
      severity: 'error',
      from: { path: exact(from) },
      to: { path: above(i), pathNot: exact(to) },
    });
  }
  return rules;
});

module.exports = {
  forbidden: [
    ...upRules,
    {
      name: 'no-module-cycle',
      comment: 'two modules never import each other, through any path: one of them is the lower one',
      severity: 'error',
      scope: 'folder',
      from: { path: `${src}modules/[^/]+$` },
      // a cycle through the layers outside modules/ needs an upward import, which the layer rules judge
      to: { path: `${src}modules/[^/]+$`, circular: true, viaOnly: { path: `${src}modules/[^/]+$` } },
    },
    {
      name: 'in-a-layer',
      comment: 'every server file belongs to a layer: a new module or folder is placed in this config first',
      severity: 'error',
      from: { path: src, pathNot: layers.flatMap((l) => l.path) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.d\\.m?ts$'] },
    // type-only imports tie modules together just the same
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/server/tsconfig.json' },
  },
};
