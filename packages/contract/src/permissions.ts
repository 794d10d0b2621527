/**
 * Roles and per-module permissions. The matrix below is only the DEFAULT a new
 * corporation starts with: it is copied into the `role_permissions` table, and the server
 * answers every check from that table, so a corporation can change it without a deploy
 * (the owner does it on /usuarios/roles, decision 0026).
 */
export const roles = ['admin', 'supervisor', 'agent'] as const;
export type Role = (typeof roles)[number];

/**
 * Who may change whom (decision 0059): a role manages (grants, changes, disables, resets) the
 * roles strictly below it; only an admin manages an admin. The server enforces it in
 * `modules/users/hierarchy.ts`; the web offers only the roles the caller may give.
 */
const roleRank: Record<Role, number> = { agent: 1, supervisor: 2, admin: 3 };
export const roleManages = (caller: Role, role: Role): boolean => caller === 'admin' || roleRank[caller] > roleRank[role];
/** The highest of a user's roles over the companies they belong to. */
export const highestRole = (list: readonly string[]): Role =>
  list.reduce<Role>((top, r) => ((roleRank[r as Role] ?? 0) > roleRank[top] ? (r as Role) : top), 'agent');
/** The roles a caller of this role may give. */
export const rolesGrantableBy = (caller: Role): Role[] => roles.filter((r) => roleManages(caller, r));

export const roleLabels: Record<Role, string> = {
  admin: 'Administrador',
  supervisor: 'Supervisor',
  agent: 'Agente',
};

/**
 * What a role may do in a module. The first five are every module's (a module may name fewer);
 * `export` and `import` (CSV files) and `all` ("ver los de todos": every agent's rows, not only
 * one's own and the unassigned ones) exist only in the modules that declare them (decision 0026).
 */
export const actions = ['list', 'read', 'create', 'update', 'delete', 'export', 'import', 'all'] as const;
export type Action = (typeof actions)[number];

/** The matrix screen's column names. */
export const actionLabels: Record<Action, string> = {
  list: 'Listar',
  read: 'Ver',
  create: 'Crear',
  update: 'Editar',
  delete: 'Eliminar',
  export: 'Exportar',
  import: 'Importar',
  all: 'Ver los de todos',
};

/** How a refusal names the action: "No tienes permiso para <verb> <noun> (<module> · <action>)". */
const actionVerbs: Record<Action, string> = {
  list: 'ver la lista de',
  read: 'ver',
  create: 'crear',
  update: 'editar',
  delete: 'eliminar',
  export: 'exportar',
  import: 'importar',
  all: 'ver los de todos en',
};

/** What a role gets in a module by default: everything, list/read/create/update (work), list/read, nothing. */
export type Access = 'all' | 'work' | 'read' | 'none';

interface ModuleDef {
  /** Spanish name (the matrix screen's rows, refusals). */
  label: string;
  /** What the module's records are called in a refusal ("exportar leads"). */
  noun: string;
  /** The agent's default. */
  agent: Access;
  /** The supervisor's default (absent: everything). */
  supervisor?: Access;
  /** The module's base actions when not all five apply. */
  base?: readonly Action[];
  /** Actions only this module has (export, import, all). */
  extra?: readonly Action[];
}

const baseActions: readonly Action[] = ['list', 'read', 'create', 'update', 'delete'];

/**
 * Modules group screens and resources (SPEC §2 groups). Later capabilities add theirs here.
 * The agent's defaults (decision 0026): their own work (leads and chats: their own and the
 * unassigned ones, no CSV files), reading what they need to answer, no marketing, no settings.
 */
export const modules = {
  profile: { label: 'Perfil', noun: 'tu perfil', agent: 'all' },
  users: { label: 'Usuarios', noun: 'usuarios', agent: 'none' },
  roles: { label: 'Roles y permisos', noun: 'los permisos de los roles', agent: 'none', supervisor: 'read', base: ['list', 'update'] },
  companies: { label: 'Compañías', noun: 'compañías', agent: 'none', supervisor: 'read' },
  groups: { label: 'Grupos', noun: 'grupos', agent: 'read' },
  settings: { label: 'Configuración', noun: 'la configuración', agent: 'none' },
  organization: { label: 'Organización', noun: 'la organización (agentes, equipos, locaciones)', agent: 'read' },
  catalog: { label: 'Catálogo', noun: 'el catálogo', agent: 'read' },
  ecommerce: { label: 'E-commerce', noun: 'el e-commerce', agent: 'read' },
  marketplace: { label: 'Marketplaces', noun: 'los marketplaces', agent: 'read' },
  leads: { label: 'Leads y contactos', noun: 'leads', agent: 'work', extra: ['export', 'import', 'all'] },
  chats: { label: 'Chat y comentarios', noun: 'chats', agent: 'work', extra: ['all'] },
  messaging: { label: 'Mensajería', noun: 'la mensajería', agent: 'read' },
  marketing: { label: 'Marketing', noun: 'marketing', agent: 'none' },
  integrations: { label: 'Teléfonos e integraciones', noun: 'las integraciones', agent: 'none' },
  metrics: { label: 'Métricas', noun: 'las métricas', agent: 'none' },
  diagnostics: { label: 'Diagnóstico', noun: 'el diagnóstico', agent: 'read' },
  api: { label: 'API e integradores', noun: 'las claves de API y los webhooks', agent: 'none', supervisor: 'none', base: ['list', 'create', 'update', 'delete'] },
  automation: { label: 'Automatizaciones', noun: 'las automatizaciones', agent: 'none' },
  audit: { label: 'Auditoría', noun: 'el registro de auditoría', agent: 'none', supervisor: 'none', base: ['list'] },
} as const satisfies Record<string, ModuleDef>;
export type Module = keyof typeof modules;
export const moduleNames = Object.keys(modules) as Module[];

/** The actions a module has, in the matrix's order. */
export function actionsOf(module: Module): Action[] {
  const def: ModuleDef = modules[module];
  const own = new Set<Action>([...(def.base ?? baseActions), ...(def.extra ?? [])]);
  return actions.filter((a) => own.has(a));
}

const readActions: readonly Action[] = ['list', 'read'];
const workActions: readonly Action[] = ['list', 'read', 'create', 'update'];

function grants(access: Access, action: Action): boolean {
  if (access === 'all') return true;
  if (access === 'work') return workActions.includes(action);
  if (access === 'read') return readActions.includes(action);
  return false;
}

/**
 * The default matrix: admin may do everything; supervisor everything but managing companies
 * and the roles' permissions; agent per module (`modules[…].agent`).
 */
export function defaultPermissions(): Array<{ role: Role; module: Module; action: Action }> {
  const rows: Array<{ role: Role; module: Module; action: Action }> = [];
  for (const module of moduleNames) {
    const def: ModuleDef = modules[module];
    for (const action of actionsOf(module)) {
      rows.push({ role: 'admin', module, action });
      if (grants(def.supervisor ?? 'all', action)) rows.push({ role: 'supervisor', module, action });
      if (grants(def.agent, action)) rows.push({ role: 'agent', module, action });
    }
  }
  return rows;
}

/**
 * The Spanish refusal of a missing permission, naming it as the matrix screen does:
 * "No tienes permiso para exportar leads (Leads y contactos · Exportar)".
 */
export function deniedMessage(module: Module, action: Action): string {
  const def: ModuleDef = modules[module];
  return `No tienes permiso para ${actionVerbs[action]} ${def.noun} (${def.label} · ${actionLabels[action]})`;
}

/** The roles whose permissions the owner may change (the admin keeps every permission, so nobody locks the company out). */
export const editableRoles: readonly Role[] = ['supervisor', 'agent'];

/**
 * Rows that belong to an agent (decision 0026). Without its module's `all` a role sees, lists,
 * reads, changes and deletes only the rows of its own agent (the agent tied to the user) and
 * the unassigned ones — on every list, by id, in exports and in the inbox. `owner` is the
 * field naming the agent; `through` reaches it through another owned resource (a chat through
 * its lead). `params`: request parameters (path, query or body) that name such a row by id:
 * a request naming one the caller may not see is a 404.
 */
export const ownedRows = {
  leads: { module: 'leads', owner: 'agenteId', params: ['leadId', 'leadIds'] },
  'clean-leads': { module: 'leads', owner: 'agenteId', params: ['cleanLeadId', 'cleanLeadIds'] },
  chats: { module: 'chats', through: { field: 'leadId', resource: 'leads' }, params: ['chatId', 'chatIds'] },
} as const satisfies Record<
  string,
  { module: Module; owner?: string; through?: { field: string; resource: string }; params: readonly string[] }
>;
export type OwnedResource = keyof typeof ownedRows;
