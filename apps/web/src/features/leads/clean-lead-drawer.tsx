import { type ChatSummary, choiceOf, type LatestAnalysis, contactFrequencyChoices, leadStatusLabels, resources } from '@mostrador/contract';
import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { formatInstant } from '../../components/crud/cell-value';
import { useRefOptions, useResourceRecord } from '../../components/crud/use-resource';
import { ChannelIcon, channelLabel } from '../../components/ui/channel-icon';
import { usePersonChats } from '../chat/api';
import { AnalysisSection } from '../chat/components/analysis-section';
import { FrequencyLinkButton } from '../dias-frecuencia/frequency-link-button';
import { DetailRow } from '../../components/detail-row';

interface Detail {
  email?: string;
  message?: string;
  source?: string;
  updatedAt?: string;
}

/** SPEC §3: a clean lead's details, newest first. */
function newestFirst(details: unknown): Detail[] {
  if (!Array.isArray(details)) return [];
  return [...(details as Detail[])].sort((a, b) => String(b.updatedAt ?? '').localeCompare(String(a.updatedAt ?? '')));
}

const Row = ({ label, children }: { label: string; children?: React.ReactNode }) => <DetailRow label={label} labelWidth={110}>{children}</DetailRow>;

/** What the person chose at /dias-frecuencia, or that they have not chosen yet. */
function frequencyLabel(lead: Record<string, unknown>): string {
  const choice = choiceOf(lead as { contactFrequencyDays?: number | null; optOut?: boolean | null });
  return contactFrequencyChoices.find((c) => c.value === choice)?.label ?? 'Sin elegir';
}

/** A person (clean lead) of /lead/todos: contact, labels, what they wrote (details) and their chats. */
export function CleanLeadDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const titleId = useId();
  const record = useResourceRecord(resources['clean-leads'], id);
  // The chat screen's own query: a new message or a read chat shows here too.
  const chats = usePersonChats(id);
  const refs = useRefOptions(['agentes', 'mostrador-labels'], !!id);
  const names = new Map(refs.options.map((o) => [o.id, o.label]));
  const lead = record.data;
  const labels = Array.isArray(lead?.mostradorLabels) ? (lead.mostradorLabels as string[]) : [];
  const details = newestFirst(lead?.details);
  // GET /clean-leads/:id answers the person's latest analysed chat's (decision 0092)
  const analysis = lead?.analysis as LatestAnalysis | undefined;
  const status = typeof lead?.status === 'string' ? (leadStatusLabels as Record<string, string>)[lead.status] : undefined;

  return (
    <Drawer
      anchor="right"
      open={!!id}
      onClose={onClose}
      // Over the app bar, as dialogs are.
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 440 } }, role: 'dialog', 'aria-labelledby': titleId } as object }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2.5, py: 2 }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {lead ? String(lead.name ?? '') : 'Persona'}
        </Typography>
        <IconButton aria-label="Cerrar" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Box sx={{ p: 2.5, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 3 }}>
        {record.isLoading && <Skeleton variant="rounded" height={120} />}
        {record.isError && <Alert severity="warning">El registro no existe o fue eliminado.</Alert>}
        {lead && (
          <Box component="section" aria-label="Datos">
            <Row label="Teléfono">{String(lead.telefono ?? '')}</Row>
            <Row label="Correo">{String(lead.email ?? '')}</Row>
            <Row label="Estado">{status}</Row>
            <Row label="Agente">{typeof lead.agenteId === 'string' ? (names.get(lead.agenteId) ?? '…') : ''}</Row>
            <Row label="Frecuencia de contacto">
              <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                <span>{frequencyLabel(lead)}</span>
                {id && <FrequencyLinkButton cleanLeadId={id} />}
              </Box>
            </Row>
            <Row label="Etiquetas">
              {labels.length > 0 && (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {labels.map((labelId) => (
                    <Chip key={labelId} size="small" variant="outlined" label={names.get(labelId) ?? '…'} />
                  ))}
                </Box>
              )}
            </Row>
          </Box>
        )}
        {lead && <AnalysisSection analysis={analysis} platform={analysis?.platform} heading="subtitle" />}
        {lead && (
          <Box component="section" aria-labelledby={`${titleId}-details`}>
            <Typography id={`${titleId}-details`} variant="subtitle2" component="h3" gutterBottom>
              Detalles
            </Typography>
            {details.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                Sin detalles todavía
              </Typography>
            ) : (
              <List dense disablePadding data-testid="clean-lead-details">
                {details.map((d, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: details have no id
                  <ListItem key={i} disableGutters sx={{ alignItems: 'flex-start' }}>
                    <ListItemText
                      primary={d.message || d.email || '—'}
                      secondary={[formatInstant(d.updatedAt, ''), d.source, d.message ? d.email : undefined].filter(Boolean).join(' · ')}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Box>
        )}
        {id && (
          <Box component="section" aria-labelledby={`${titleId}-chats`}>
            <Typography id={`${titleId}-chats`} variant="subtitle2" component="h3" gutterBottom>
              Chats
            </Typography>
            {chats.isLoading && <Skeleton variant="rounded" height={48} />}
            {chats.isError && (
              <Typography variant="body2" color="error">
                No se pudieron cargar los chats.
              </Typography>
            )}
            {chats.data && chats.data.payload.length === 0 && (
              <Typography variant="body2" color="text.secondary">
                Esta persona aún no tiene chats
              </Typography>
            )}
            {chats.data && chats.data.payload.length > 0 && (
              <List dense disablePadding>
                {chats.data.payload.map((chat: ChatSummary) => (
                  <ListItemButton key={chat._id} component={RouterLink} to={`/chat?${new URLSearchParams({ chatId: chat._id })}`} sx={{ borderRadius: 1 }}>
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      <ChannelIcon platform={chat.platform} decorative fontSize="small" />
                    </ListItemIcon>
                    <ListItemText
                      primary={`${channelLabel(chat.platform)} · ${chat.contactName}`}
                      secondary={[chat.lastMessagePreview, formatInstant(chat.lastMessageAt, '')].filter(Boolean).join(' · ')}
                      slotProps={{ secondary: { noWrap: true } }}
                      sx={{ minWidth: 0 }}
                    />
                  </ListItemButton>
                ))}
              </List>
            )}
          </Box>
        )}
      </Box>
    </Drawer>
  );
}
