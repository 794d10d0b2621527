import { type ChatSummary, type LeadStatus, leadStatuses, leadStatusLabels, resources } from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CloseIcon from '@mui/icons-material/Close';
import EmailOutlinedIcon from '@mui/icons-material/EmailOutlined';
import PhoneOutlinedIcon from '@mui/icons-material/PhoneOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useRefOptions, useResourceList } from '../../../components/crud/use-resource';
import { ChannelIcon } from '../../../components/ui/channel-icon';
import { usePermissions } from '../../../lib/permissions';
import { resourceKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { chatApi, chatKeys } from '../api';
import { storeChatSummary, usePersonChats } from '../hooks/use-chat-data';
import { relativeTime } from '../lib/time';
import { channelNames, chatTexts } from '../texts';

type Lead = NonNullable<ChatSummary['lead']>;
type LeadPatch = { status?: LeadStatus; agenteId?: string | null; mostradorLabels?: string[] };

const LABELS_LIMIT = 200;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gap: 0.25 }}>
      <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: '0.04em', fontSize: '0.68rem' }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', minWidth: 0, overflowWrap: 'anywhere' }}>{children}</Box>
    </Box>
  );
}

/** Moves, assigns and labels the chat's lead (PUT /leads/:id); the change shows at once in the thread and the inbox. */
function useUpdateLead(chat: ChatSummary) {
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  return useMutation({
    mutationFn: ({ leadId, patch }: { leadId: string; patch: LeadPatch }) => chatApi.updateLead(leadId, patch),
    onSuccess: (_lead, { patch }) => {
      if (chat.lead) {
        const { agenteId, ...rest } = patch;
        const lead = { ...chat.lead, ...rest, ...(agenteId !== undefined ? { agenteId: agenteId ?? undefined } : {}) };
        storeChatSummary(queryClient, companyId, { ...chat, lead });
      }
      // Lists filtered by status, agent or label may gain or lose it; lead screens show it too.
      void queryClient.invalidateQueries({ queryKey: chatKeys.inboxes() });
      void queryClient.invalidateQueries({ queryKey: resourceKeys('leads').all });
    },
  });
}

/** The lead's labels as coloured chips, removable, and a picker to add one. */
function LabelsEditor({ lead, disabled, onChange }: { lead: Lead; disabled: boolean; onChange: (ids: string[]) => void }) {
  const labels = useResourceList(resources['mostrador-labels'], { sort: 'name', order: 'asc', page: 1, limit: LABELS_LIMIT });
  const all = (labels.data?.payload ?? []) as Array<{ _id: string; name?: string; color?: string }>;
  const current = lead.mostradorLabels ?? [];
  const byId = new Map(all.map((l) => [l._id, l]));
  const remaining = all.filter((l) => !current.includes(l._id));
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }} data-testid="lead-labels">
        {current.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {chatTexts.noLabels}
          </Typography>
        )}
        {current.map((id) => {
          const label = byId.get(id);
          const color = label?.color ?? '#6B6B80';
          return (
            <Chip
              key={id}
              size="small"
              label={label?.name ?? '…'}
              onDelete={disabled ? undefined : () => onChange(current.filter((x) => x !== id))}
              sx={{ bgcolor: `${color}1F`, color: 'text.primary', border: 1, borderColor: `${color}66`, '& .MuiChip-deleteIcon': { color: `${color}` } }}
            />
          );
        })}
      </Box>
      {!disabled && remaining.length > 0 && (
        <TextField
          select
          size="small"
          label={chatTexts.addLabel}
          value=""
          onChange={(e) => e.target.value && onChange([...current, e.target.value])}
          slotProps={{ select: { IconComponent: AddIcon } }}
        >
          {remaining.map((l) => (
            <MenuItem key={l._id} value={l._id}>
              <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: l.color ?? 'grey.500', mr: 1, display: 'inline-block' }} />
              {l.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    </Box>
  );
}

export interface LeadPanelProps {
  chat: ChatSummary;
  onClose?: () => void;
  /** Phones: the panel is a view of its own, left with a back arrow. */
  onBack?: () => void;
}

/** The side panel: who the customer is, the lead's status, agent and labels, and the person's other chats. */
export function LeadPanel({ chat, onClose, onBack }: LeadPanelProps) {
  const permissions = usePermissions();
  const canEdit = permissions.can('leads', 'update');
  const lead = chat.lead;
  const update = useUpdateLead(chat);
  const agents = useRefOptions(['agentes'], !!lead);
  const person = usePersonChats(lead?.cleanLeadId);
  const others = (person.data?.payload ?? []).filter((c) => c._id !== chat._id);
  const now = Date.now();
  const save = (patch: LeadPatch) => lead && update.mutate({ leadId: lead._id, patch });

  return (
    <Box component="aside" aria-label={chatTexts.lead} sx={{ height: '100%', overflowY: 'auto', bgcolor: 'background.paper' }} data-testid="lead-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: onBack ? 1 : 2, py: 1, minHeight: 60, borderBottom: 1, borderColor: 'divider' }}>
        {onBack && (
          <IconButton aria-label={chatTexts.backToThread} onClick={onBack}>
            <ArrowBackIcon />
          </IconButton>
        )}
        <Typography variant="h3" component="h2" sx={{ flex: 1, fontSize: '1rem' }}>
          {chatTexts.lead}
        </Typography>
        {onClose && !onBack && (
          <Tooltip title={chatTexts.hidePanel}>
            <IconButton aria-label={chatTexts.hidePanel} onClick={onClose} size="small">
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, p: 2 }}>
        <Box>
          <Typography sx={{ fontWeight: 700, fontSize: '1.1rem', overflowWrap: 'anywhere' }}>{lead?.name ?? chat.contactName}</Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, color: 'text.secondary', mt: 0.25 }}>
            <ChannelIcon platform={chat.platform} label={channelNames[chat.platform]} sx={{ fontSize: 18 }} />
            <Typography variant="body2">{channelNames[chat.platform]}</Typography>
          </Box>
        </Box>
        {!lead ? (
          <Typography variant="body2" color="text.secondary">
            {chatTexts.noLead}
          </Typography>
        ) : (
          <>
            <Field label={chatTexts.phone}>
              {lead.telefono ? (
                <Link href={`tel:+${lead.telefono}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <PhoneOutlinedIcon sx={{ fontSize: 16 }} />
                  {lead.telefono}
                </Link>
              ) : (
                '—'
              )}
            </Field>
            <Field label={chatTexts.email}>
              {lead.email ? (
                <Link href={`mailto:${lead.email}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                  <EmailOutlinedIcon sx={{ fontSize: 16 }} />
                  {lead.email}
                </Link>
              ) : (
                '—'
              )}
            </Field>
            <TextField
              select
              size="small"
              label={chatTexts.status}
              value={lead.status ?? ''}
              disabled={!canEdit || update.isPending}
              onChange={(e) => e.target.value !== lead.status && save({ status: e.target.value as LeadStatus })}
            >
              {leadStatuses.map((s) => (
                <MenuItem key={s} value={s}>
                  {leadStatusLabels[s]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              label={chatTexts.agent}
              value={lead.agenteId ?? ''}
              disabled={!canEdit || update.isPending}
              onChange={(e) => e.target.value !== (lead.agenteId ?? '') && save({ agenteId: e.target.value || null })}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              {/* null unassigns the lead */}
              <MenuItem value="">
                {chatTexts.noAgent}
              </MenuItem>
              {agents.options.map((o) => (
                <MenuItem key={o.id} value={o.id}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
            <Field label={chatTexts.labels}>
              <LabelsEditor lead={lead} disabled={!canEdit || update.isPending} onChange={(ids) => save({ mostradorLabels: ids })} />
            </Field>
          </>
        )}
      </Box>
      {lead?.cleanLeadId && (
        <>
          <Divider />
          <Box sx={{ p: 2, pb: 1 }}>
            <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: '0.04em', fontSize: '0.68rem' }}>
              {chatTexts.otherChats}
            </Typography>
          </Box>
          {others.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 2 }}>
              {person.isLoading ? chatTexts.loading : chatTexts.noOtherChats}
            </Typography>
          ) : (
            <List dense aria-label={chatTexts.otherChats} sx={{ pt: 0 }}>
              {others.map((other) => (
                <ListItemButton key={other._id} component={RouterLink} to={`/chat?chatId=${encodeURIComponent(other._id)}`}>
                  <ListItemIcon sx={{ minWidth: 32 }}>
                    <ChannelIcon platform={other.platform} label={channelNames[other.platform]} sx={{ fontSize: 20 }} />
                  </ListItemIcon>
                  <ListItemText
                    primary={`${channelNames[other.platform]} · ${other.contactName}`}
                    secondary={[other.lastMessagePreview, relativeTime(other.lastMessageAt, now)].filter(Boolean).join(' · ')}
                    slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              ))}
            </List>
          )}
        </>
      )}
    </Box>
  );
}
