/**
 * Roles and per-module permissions. The matrix below is only the DEFAULT a new
 * corporation starts with: it is copied into the `role_permissions` table, and the server
 * answers every check from that table, so a corporation can change it without a deploy.
 */
export const roles = ['admin', 'supervisor', 'agent'] as const;
export type Role = (typeof roles)[number];

export const roleLabels: Record<Role, string> = {
  admin: 'Administrador',
  supervisor: 'Supervisor',
  agent: 'Agente',
};

export const actions = ['list', 'read', 'create', 'update', 'delete'] as const;
export type Action = (typeof actions)[number];

/** What an agent may do in a module by default: everything, list/read/create/update (work), list/read, nothing. */
export type AgentAccess = 'all' | 'work' | 'read' | 'none';

/**
 * Modules group screens and resources (SPEC §2 groups). Later capabilities add theirs here.
 * `manage` marks modules that agents may only read at most.
 */
export const modules = {
  profile: { label: 'Perfil', agent: 'all' },
  users: { label: 'Usuarios', agent: 'none' },
  companies: { label: 'Compañías', agent: 'none' },
  groups: { label: 'Grupos', agent: 'read' },
  settings: { label: 'Configuración', agent: 'read' },
  organization: { label: 'Organización', agent: 'read' },
  catalog: { label: 'Catálogo', agent: 'read' },
  ecommerce: { label: 'E-commerce', agent: 'read' },
  marketplace: { label: 'Marketplaces', agent: 'read' },
  leads: { label: 'Leads y contactos', agent: 'work' },
  chats: { label: 'Chat y comentarios', agent: 'work' },
  messaging: { label: 'Mensajería', agent: 'read' },
  marketing: { label: 'Marketing', agent: 'read' },
  integrations: { label: 'Teléfonos e integraciones', agent: 'none' },
  metrics: { label: 'Métricas', agent: 'none' },
  diagnostics: { label: 'Diagnóstico', agent: 'read' },
} as const satisfies Record<string, { label: string; agent: AgentAccess }>;
export type Module = keyof typeof modules;
export const moduleNames = Object.keys(modules) as Module[];

const readActions: Action[] = ['list', 'read'];

/** The default matrix: admin may do everything; supervisor everything but manage companies; agent per module. */
export function defaultPermissions(): Array<{ role: Role; module: Module; action: Action }> {
  const rows: Array<{ role: Role; module: Module; action: Action }> = [];
  for (const module of moduleNames) {
    for (const action of actions) {
      rows.push({ role: 'admin', module, action });
      if (module !== 'companies' || readActions.includes(action)) rows.push({ role: 'supervisor', module, action });
      const agent: AgentAccess = modules[module].agent;
      const agentMay =
        agent === 'all' || (agent === 'work' && action !== 'delete') || (agent === 'read' && readActions.includes(action));
      if (agentMay) rows.push({ role: 'agent', module, action });
    }
  }
  return rows;
}
