import { registerInput, roleLabels, roles, rolesGrantableBy, userOut, userPatch, userSortFields } from '@mostrador/contract';
import { defineScreen, type ResourceDescriptor } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';

/**
 * Users are not a standard resource: they are listed per company (GET /users), created
 * through POST /register (registerInput) and edited with PUT /users/{id} (userPatch);
 * DELETE removes them from the current company.
 */
const fields = { ...registerInput.shape, disabled: userOut.shape.disabled.optional() };

export const usersResource = {
  key: 'users',
  label: 'Usuario',
  labelPlural: 'Usuarios',
  module: 'users',
  fields,
  operations: ['list', 'get', 'create', 'update', 'delete'],
  path: 'users',
  createPath: 'register',
  input: registerInput,
  patch: userPatch,
  defaultSort: { field: 'name', order: 'asc' },
  sortable: userSortFields,
  searchable: ['first_name', 'last_name', 'email'],
  refs: { companyIds: ['companies'] },
  writeOnly: ['password'],
} as const satisfies ResourceDescriptor;

export const screen = defineScreen({
  resource: usersResource,
  title: 'Usuarios',
  subtitle: 'Las personas que trabajan en esta compañía y su rol',
  newLabel: 'Nuevo usuario',
  editLabel: 'Editar usuario',
  emptyMessage: 'Aún no hay usuarios en esta compañía',
  noResultsMessage: 'Ningún usuario coincide con la búsqueda',
  columns: [
    { field: 'name', label: 'Nombre', render: (row) => `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() },
    'email',
    'role',
    { field: 'disabled', label: 'Estado', render: (row) => (row.disabled ? 'Deshabilitado' : 'Activo') },
  ],
  form: ['first_name', 'last_name', 'email', 'password', 'role', 'companyIds', 'disabled'],
  fields: {
    email: { only: 'create' },
    password: { only: 'create', helperText: 'Al menos 8 caracteres' },
    role: { options: roleLabels, optionsFor: (role) => (role ? rolesGrantableBy(role) : roles) },
    companyIds: { label: 'Compañías', only: 'create' },
    disabled: { label: 'Deshabilitado (no puede iniciar sesión)', only: 'edit' },
  },
  editPath: (row) => `/usuarios/${row._id}`,
  defaults: () => ({ role: 'agent', companyIds: sessionStore.get().companyId ? [sessionStore.get().companyId] : [] }),
});
