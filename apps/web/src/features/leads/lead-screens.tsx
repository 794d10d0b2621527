import { chatPlatforms, leadStatusLabels, platformLabels, resources } from '@mostrador/contract';
import ChatOutlined from '@mui/icons-material/ChatOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { defineScreen, type ResourceDescriptor, type ResourceRecord, type ScreenConfig } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { ChannelLabel } from '../../components/ui/channel-icon';
import { displayLocale } from '../../i18n';
import { bucketOf, type LeadBucketSlug } from './buckets';
import { LeadCsvActions } from './lead-csv-actions';

/** Where a lead's conversation opens (the chat screen reads these). */
export function chatLinkOf(row: ResourceRecord): string | undefined {
  const platform = row.platform;
  if (typeof platform !== 'string' || !(chatPlatforms as readonly string[]).includes(platform)) return undefined;
  return `/chat?${new URLSearchParams({ leadId: row._id, platform })}`;
}

/** "Abrir chat": web leads have no chat, so no button. */
export function OpenChatButton({ row }: { row: ResourceRecord }) {
  const to = chatLinkOf(row);
  if (!to) return null;
  return (
    <Tooltip title="Abrir chat">
      <IconButton component={RouterLink} to={to} size="small" aria-label={`Abrir chat: ${displayNameOf(row)}`}>
        <ChatOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** A date on one line and its time below, in Spanish ('21 nov. 2025' · '3:59 p. m.'). */
function DateCell({ value }: { value: unknown }) {
  const date = typeof value === 'string' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return <>—</>;
  return (
    <Box component="time" dateTime={date.toISOString()} sx={{ display: 'block', whiteSpace: 'nowrap' }}>
      {date.toLocaleDateString(displayLocale(), { dateStyle: 'medium' })}
      <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {date.toLocaleTimeString(displayLocale(), { timeStyle: 'short' })}
      </Typography>
    </Box>
  );
}

/** A person's name, on one line where the table has room. */
function NameCell({ row }: { row: ResourceRecord }) {
  return (
    <Box component="span" sx={{ whiteSpace: { xs: 'normal', xl: 'nowrap' }, fontWeight: 500 }}>
      {displayNameOf(row)}
    </Box>
  );
}

const leadFields = {
  telefono: { helperText: 'Con código de país, por ejemplo 51987654321' },
  platform: { label: 'Canal', options: platformLabels },
  status: { options: leadStatusLabels },
  agenteId: { label: 'Agente' },
  mostradorLabels: { label: 'Etiquetas' },
} as const;

/** A lead bucket's list (SPEC §2): the leads of one stage or channel, or all of them. */
export function bucketScreen(slug: LeadBucketSlug): ScreenConfig {
  const bucket = bucketOf(slug);
  return defineScreen({
    resource: resources.leads,
    title: bucket.title,
    subtitle: bucket.subtitle,
    newLabel: 'Nuevo lead',
    editLabel: 'Editar lead',
    emptyMessage: bucket.emptyMessage,
    noResultsMessage: slug === 'todos' ? 'Ningún lead coincide con la búsqueda y los filtros' : 'Ningún lead coincide con la búsqueda',
    columns: [
      { field: 'name', hideOnMobile: false, render: (row) => <NameCell row={row} /> },
      { field: 'telefono', hideOnMobile: true },
      { field: 'platform', label: 'Canal', render: (row) => <ChannelLabel platform={row.platform} />, hideOnMobile: true },
      { field: 'status', inline: true, hideOnMobile: false },
      { field: 'agenteId', label: 'Agente', inline: true },
      { field: 'mostradorLabels', label: 'Etiquetas' },
      { field: 'createdAt', label: 'Creado', render: (row) => <DateCell value={row.createdAt} /> },
    ],
    // Leads come from the channels and the CSV import: no New here.
    create: false,
    form: ['name', 'telefono', 'email', 'status', 'agenteId', 'mostradorLabels'],
    fields: leadFields,
    filters: bucket.filters,
    toolbar: (query) => <LeadCsvActions resource="leads" filters={query} canImport={slug === 'todos'} />,
    rowActions: (row) => <OpenChatButton row={row} />,
  });
}

/** Clean leads as /lead/todos lists them: the advanced filter (same filters as the leads). */
const cleanLeadsResource: ResourceDescriptor = {
  ...resources['clean-leads'],
  listPath: 'clean-leads/list_with_advance_filter',
};

/** "Personas (leads limpios)": one row per person; a row opens its detail. */
export function cleanLeadsScreen(openDetail: (row: ResourceRecord) => void): ScreenConfig {
  return defineScreen({
    resource: cleanLeadsResource,
    title: 'Todos los leads',
    subtitle: 'Personas: los leads de todos los canales unidos en uno por persona',
    newLabel: 'Nueva persona',
    editLabel: 'Editar persona',
    emptyMessage: 'Aún no hay personas',
    noResultsMessage: 'Ninguna persona coincide con la búsqueda y los filtros',
    columns: [
      { field: 'name', hideOnMobile: false, render: (row) => <NameCell row={row} /> },
      { field: 'telefono', hideOnMobile: true },
      { field: 'email', hideOnMobile: true },
      { field: 'status', hideOnMobile: false },
      { field: 'mostradorLabels', label: 'Etiquetas' },
      { field: 'updatedAt', label: 'Última actividad', render: (row) => <DateCell value={row.updatedAt} /> },
    ],
    fields: { status: { options: leadStatusLabels }, mostradorLabels: { label: 'Etiquetas' } },
    create: false,
    edit: false,
    delete: false,
    toolbar: (query) => <LeadCsvActions resource="clean-leads" filters={query} />,
    rowActions: (row) => (
      <Tooltip title="Ver detalle">
        <IconButton size="small" aria-label={`Ver detalle: ${displayNameOf(row)}`} onClick={() => openDetail(row)}>
          <VisibilityOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
    ),
  });
}
