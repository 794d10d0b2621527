import { resources } from '@mostrador/contract';
import { defineScreen } from '../../components/crud/types';

/**
 * /contactos: every contact of the company's business phones (SPEC §2 "Metrics and
 * contacts"). /telefonos/contactos/{id} shows the same list for one phone
 * (features/contacts/phone-contacts-page.tsx). DELETE sends {telefonoId} (SPEC §7).
 */
export const screen = defineScreen({
  resource: resources.contactos,
  title: 'Contactos',
  subtitle: 'Los contactos de los teléfonos de la compañía',
  newLabel: 'Nuevo contacto',
  editLabel: 'Editar contacto',
  emptyMessage: 'Aún no hay contactos registrados',
  noResultsMessage: 'Ningún contacto coincide con la búsqueda',
  columns: ['nombre', 'telefono', 'email', 'telefonoId'],
  displayField: 'nombre',
  fields: {
    telefono: { helperText: 'Con código de país, por ejemplo 51987654321' },
    telefonoId: { label: 'Teléfono de la empresa' },
  },
});
