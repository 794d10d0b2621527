import { companyInput, companyPatch, companySortFields, currencyLabels, timezoneLabels } from '@mostrador/contract';
import { defineScreen, type ResourceDescriptor } from '../../components/crud/types';

/** Companies of the corporation: GET/POST /companies, GET/PUT/DELETE /companies/{id} (companyInput, companyPatch). */
export const companiesResource = {
  key: 'companies',
  label: 'Compañía',
  labelPlural: 'Compañías',
  module: 'companies',
  fields: companyInput.shape,
  operations: ['list', 'get', 'create', 'update', 'delete'],
  path: 'companies',
  input: companyInput,
  patch: companyPatch,
  defaultSort: { field: 'name', order: 'asc' },
  sortable: companySortFields,
  searchable: ['name'],
  refs: {},
  writeOnly: [],
} as const satisfies ResourceDescriptor;

export const settingsFields = {
  label: 'Ajustes',
  fields: { timezone: { label: 'Zona horaria', options: timezoneLabels }, currency: { label: 'Moneda', options: currencyLabels } },
};

export const screen = defineScreen({
  resource: companiesResource,
  title: 'Compañías',
  subtitle: 'Las compañías de tu corporación; cada una guarda sus propios datos',
  newLabel: 'Nueva compañía',
  editLabel: 'Editar compañía',
  emptyMessage: 'Aún no hay compañías',
  noResultsMessage: 'Ninguna compañía coincide con la búsqueda',
  columns: ['name', 'country', 'createdAt'],
  form: ['name', 'country', 'settings'],
  fields: { settings: settingsFields },
});
