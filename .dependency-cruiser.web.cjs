/**
 * The web app's layers, checked by `npm run graph:web` (part of `npm run lint`); decision 0069.
 *
 *   app/         the shell, the routes and the menu registry (app/screens.ts), main.tsx
 *   features/*   the screens, each folder one feature with its screen configs
 *   components/  the shared UI (the generic CRUD list and form, ui/)
 *   lib/, i18n/  utilities: the API client, the session, query keys, texts
 *   @mostrador/contract
 *
 * A layer imports only the layers below it. A feature imports another feature only through
 * what that feature deliberately exports (its `api.ts`, see `featureExports`). The few imports
 * that still run back up a layer are listed in `allowedBackUp`, at most 3, each with its reason.
 */

const src = '^apps/web/src';

/**
 * What a feature deliberately exports to the other features: its `api.ts` (calls, hooks, keys,
 * their types), and the pieces listed here, each with the features that use it and why it is
 * that feature's and not shared UI. Anything else in a feature folder is its own.
 */
const featureExports = [
  { path: 'features/[^/]+/api\\.ts', why: "a feature's calls and hooks are its public face" },
  { path: 'features/drive/drive-picker\\.tsx', why: 'the media library picker: the chat composer and the template form attach from Drive' },
  { path: 'features/person/(person-sections\\.tsx|use-person\\.ts|texts\\.ts)', why: "the person card: the chat's lead panel shows the same sections, calls and texts" },
  { path: 'features/genial/invoice-cell\\.tsx', why: 'the electronic invoice of an order: the e-commerce and marketplace order lists show it' },
  { path: 'features/leads/lead-csv-actions\\.tsx', why: "the leads' CSV import: RetailRocket's tags import through it" },
  { path: 'features/chat/components/analysis-section\\.tsx', why: "a chat's analysis (decision 0092): a person's drawer in /lead/todos shows the chat panel's «Análisis»" },
  { path: 'features/dias-frecuencia/frequency-link-button\\.tsx', why: "a lead's frequency link: the lead drawer opens it" },
  { path: 'features/massive-messages/(imagina-preview|campaign-check-card|segment-send-action)\\.tsx', why: "the send's pre-send check, its Imagina preview and a segment's send action: campaigns, the chat's template picker and the segments screen start or show a send" },
  { path: 'features/campaigns/recipients-dialog\\.tsx', why: "the recipients report: the massive history opens a send's report like a campaign chunk's" },
  { path: 'features/organization/(users|companies)-screen\\.ts', why: "the users' and companies' resources: a group's members pick users, /configuracion edits the company with the same form" },
  { path: 'features/payments/order-payments\\.tsx', why: "an order's payments (link, manual proof, history): the order's detail in /ordenes shows them" },
  { path: 'features/conversions-api/conversions-card\\.tsx', why: "Meta's Conversions API settings and event log (decision 0098): /configuracion shows the card" },
];

/**
 * The imports that run back up a layer, kept on purpose: at most 3, each with the rule it
 * breaks, the importing file, the imported file (paths under apps/web/src, regular expressions)
 * and why. None today: the twelve found when this config was written moved to where they belong
 * (decision 0069). A new one fails `graph:web` until it moves or is listed here.
 */
const allowedBackUp = [
  // { rule: 'components-below-features', from: 'components/ui/x\\.tsx', to: 'features/y/z\\.ts', why: '…' },
];

if (allowedBackUp.length > 3) throw new Error('.dependency-cruiser.web.cjs: at most 3 imports may run back up a layer (issue 27)');

// the test files and their helpers (fakes, fixtures, a feature's fake server): they may reach anything
const tests = '(\\.test\\.tsx?$|^apps/web/src/test/|/test-fixtures\\.ts$|/test-server\\.ts$)';

/**
 * A layer rule with its allowed pairs left out, exactly: dependency-cruiser has no "except this
 * pair", so the rule skips each allowed importer, and one more rule per importer forbids it
 * everything the layer rule does except the one allowed file.
 */
function layer(rule) {
  const allowed = allowedBackUp.filter((a) => a.rule === rule.name);
  const from = (path) => ({ path, pathNot: tests });
  return [
    { ...rule, from: { path: rule.from, pathNot: [tests, ...allowed.map((a) => `${src}/${a.from}$`)] } },
    ...allowed.map((a) => ({ ...rule, from: from(`${src}/${a.from}$`), to: { ...rule.to, pathNot: [...(rule.to.pathNot ?? []), `${src}/${a.to}$`] } })),
  ];
}

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles in the web app.',
      severity: 'error',
      from: { path: src },
      to: { circular: true },
    },
    ...layer({
      name: 'lib-is-the-bottom',
      comment: 'lib/ and i18n/ are utilities: they import only each other, the contract and packages.',
      severity: 'error',
      from: `${src}/(lib|i18n)/`,
      to: { path: `${src}/(app|features|components)/|${src}/main\\.tsx$` },
    }),
    ...layer({
      name: 'components-below-features',
      comment: 'components/ is shared UI: it never imports a feature or the app.',
      severity: 'error',
      from: `${src}/components/`,
      to: { path: `${src}/(app|features)/|${src}/main\\.tsx$` },
    }),
    ...layer({
      name: 'features-below-app',
      comment: 'A feature never imports the app shell or its registry.',
      severity: 'error',
      from: `${src}/features/`,
      to: { path: `${src}/app/|${src}/main\\.tsx$` },
    }),
    {
      name: 'no-feature-internals',
      comment: 'A feature imports another feature only through what it exports (featureExports), never its internals.',
      severity: 'error',
      from: { path: `${src}/features/([^/]+)/`, pathNot: tests },
      to: {
        path: `${src}/features/`,
        pathNot: [`${src}/features/$1/`, ...featureExports.map((e) => `${src}/${e.path}$`)],
      },
    },
    {
      name: 'test-helpers-only-in-tests',
      comment: 'src/test/ (fakes, render helpers) is for the test files only.',
      severity: 'error',
      from: { path: src, pathNot: tests },
      to: { path: `${src}/test/` },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a moved file left no stale path behind).',
      severity: 'error',
      from: { path: src },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    includeOnly: `${src}/|^packages/contract/`,
    exclude: { path: 'node_modules' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'apps/web/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
