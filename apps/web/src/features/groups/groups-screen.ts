import { resources } from '@mostrador/contract';
import Group from '@mui/icons-material/Group';
import { defineScreen } from '../../components/crud/types';

export const screen = defineScreen({
  resource: resources.groups,
  title: 'Grupos',
  subtitle: 'Agrupa a los usuarios de la compañía',
  newLabel: 'Nuevo grupo',
  editLabel: 'Editar grupo',
  emptyMessage: 'Aún no hay grupos',
  noResultsMessage: 'Ningún grupo coincide con la búsqueda',
  columns: ['name', 'description'],
  detail: { label: 'Miembros', path: (row) => `/grupos/${row._id}`, icon: Group },
});
