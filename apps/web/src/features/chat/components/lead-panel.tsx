import { type ChatSummary, type LeadStatus, leadStatuses, leadStatusLabels, type Person, resources } from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CloseIcon from '@mui/icons-material/Close';
import EmailOutlinedIcon from '@mui/icons-material/EmailOutlined';
import PhoneOutlinedIcon from '@mui/icons-material/PhoneOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useRefOptions, useResourceList } from '../../../components/crud/use-resource';
import { ChannelIcon } from '../../../components/ui/channel-icon';
import { usePermissions } from '../../../lib/permissions';
import { resourceKeys, chatKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { chatApi } from '../api';
import { DuplicatesSection, errorFor, InlineEdit, PersonContacts, PersonConversations } from '../../person/person-sections';
import { channelsOf, personTexts } from '../../person/texts';
import { usePerson, useUpdatePerson } from '../../person/use-person';
import { useChatAnalysis, useChatCsat, usePersonChats } from '../api';
import { AnalysisSection } from './analysis-section';
import { storeChatSummary } from '../hooks/use-chat-data';
import { channelNames, chatTexts } from '../texts';

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

/** Labels as coloured chips, removable, and a picker to add one. */
function LabelsEditor({ current, disabled, onChange }: { current: string[]; disabled: boolean; onChange: (ids: string[]) => void }) {
  const labels = useResourceList(resources['mostrador-labels'], { sort: 'name', order: 'asc', page: 1, limit: LABELS_LIMIT });
  const all = (labels.data?.payload ?? []) as Array<{ _id: string; name?: string; color?: string }>;
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

/** Phones or e-mails: the person's own (editable), then the other ones its channels know. */
function ContactValues({
  kind,
  own,
  all,
  editable,
  onSave,
}: {
  kind: 'telefono' | 'email';
  own: string | undefined;
  all: string[];
  editable: boolean;
  onSave: (value: string) => Promise<unknown>;
}) {
  const phone = kind === 'telefono';
  const link = (value: string) => (
    <Link href={phone ? `tel:+${value}` : `mailto:${value}`} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {phone ? <PhoneOutlinedIcon sx={{ fontSize: 16 }} /> : <EmailOutlinedIcon sx={{ fontSize: 16 }} />}
      {value}
    </Link>
  );
  const others = all.filter((v) => v !== own);
  return (
    <Box sx={{ display: 'grid', gap: 0.5 }} data-testid={phone ? 'person-phones' : 'person-emails'}>
      <InlineEdit
        field={kind}
        label={phone ? personTexts.ownPhone : personTexts.ownEmail}
        value={own}
        display={own ? link(own) : undefined}
        addLabel={phone ? personTexts.addPhone : personTexts.addEmail}
        editable={editable}
        type={phone ? 'tel' : 'email'}
        onSave={onSave}
      />
      {others.map((v) => (
        <Box key={v}>{link(v)}</Box>
      ))}
    </Box>
  );
}

export interface LeadPanelProps {
  chat: ChatSummary;
  onClose?: () => void;
  /** Phones: the panel is a view of its own, left with a back arrow. */
  onBack?: () => void;
}

/**
 * The side panel: the person behind the chat (issue 11, decision 0029) — their name, phones,
 * e-mails and labels, editable in place; this conversation's status and agent; every
 * conversation of the person on every channel; the contacts saved with their phone or e-mail;
 * and «Posibles duplicados» to merge. Without the person's answer it shows the chat's lead.
 */
export function LeadPanel({ chat, onClose, onBack }: LeadPanelProps) {
  const permissions = usePermissions();
  const canEdit = permissions.can('leads', 'update');
  const lead = chat.lead;
  const update = useUpdateLead(chat);
  const analysis = useChatAnalysis(chat._id, chat.lastMessageAt);
  const csat = useChatCsat(chat._id, chat.lastMessageAt);
  const agents = useRefOptions(['agentes'], !!lead);
  // the person's chats stay live through the chat screen's events; a change reloads the person
  const personChats = usePersonChats(lead?.cleanLeadId);
  const personQuery = usePerson(lead ? { chatId: chat._id } : undefined, personChats.dataUpdatedAt || undefined);
  const person: Person | undefined = personQuery.data;
  const personId = person?._id;
  const updatePerson = useUpdatePerson();
  const savePerson = (patch: Parameters<typeof updatePerson.mutateAsync>[0]['patch']) =>
    personId ? updatePerson.mutateAsync({ id: personId, patch }) : Promise.resolve();
  const editable = canEdit && !!personId;
  const [labelsError, setLabelsError] = useState<string>();
  const save = (patch: LeadPatch) => lead && update.mutate({ leadId: lead._id, patch });

  const chats = personChats.data?.payload ?? person?.leads.flatMap((l) => l.chats) ?? [];
  const channels = person && person.leads.length > 0 ? channelsOf(person) : [chat.platform];
  const name = person?.name ?? lead?.name ?? chat.contactName;
  const labels = person?._id ? person.mostradorLabels : (lead?.mostradorLabels ?? []);

  return (
    <Box component="aside" aria-label={personTexts.title} sx={{ height: '100%', overflowY: 'auto', bgcolor: 'background.paper' }} data-testid="lead-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: onBack ? 1 : 2, py: 1, minHeight: 60, borderBottom: 1, borderColor: 'divider' }}>
        {onBack && (
          <IconButton aria-label={chatTexts.backToThread} onClick={onBack}>
            <ArrowBackIcon />
          </IconButton>
        )}
        <Typography variant="h3" component="h2" sx={{ flex: 1, fontSize: '1rem' }}>
          {personTexts.title}
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
          <Box sx={{ typography: 'body1', fontWeight: 700, fontSize: '1.1rem' }} data-testid="person-name">
            <InlineEdit field="name" label={personTexts.name} value={name} editable={editable} onSave={(v) => savePerson({ name: v })} />
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.75, color: 'text.secondary', mt: 0.25 }} data-testid="person-channels">
            {channels.map((p) => (
              <Box key={p} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
                <ChannelIcon platform={p} label={channelNames[p as keyof typeof channelNames] ?? p} sx={{ fontSize: 18 }} />
                <Typography variant="body2">{channelNames[p as keyof typeof channelNames] ?? 'Web'}</Typography>
              </Box>
            ))}
          </Box>
        </Box>
        {!lead ? (
          <Typography variant="body2" color="text.secondary">
            {chatTexts.noLead}
          </Typography>
        ) : (
          <>
            {personQuery.isError && (
              <Alert severity="warning" action={<Button onClick={() => void personQuery.refetch()}>{personTexts.retry}</Button>}>
                {personTexts.loadError}
              </Alert>
            )}
            {person && !person._id && <Alert severity="info">{personTexts.noPerson}</Alert>}
            <Field label={personTexts.phones}>
              <ContactValues
                kind="telefono"
                own={person?._id ? person.telefono : lead.telefono}
                all={person?.telefonos ?? (lead.telefono ? [lead.telefono] : [])}
                editable={editable}
                onSave={(v) => savePerson({ telefono: v || null })}
              />
            </Field>
            <Field label={personTexts.emails}>
              <ContactValues
                kind="email"
                own={person?._id ? person.email : lead.email}
                all={person?.emails ?? (lead.email ? [lead.email] : [])}
                editable={editable}
                onSave={(v) => savePerson({ email: v || null })}
              />
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
              <MenuItem value="">{chatTexts.noAgent}</MenuItem>
              {agents.options.map((o) => (
                <MenuItem key={o.id} value={o.id}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
            <Field label={chatTexts.labels}>
              <LabelsEditor
                current={labels}
                disabled={!canEdit || update.isPending || updatePerson.isPending}
                onChange={(ids) => {
                  setLabelsError(undefined);
                  if (personId) savePerson({ mostradorLabels: ids }).catch((e: unknown) => setLabelsError(errorFor(e, 'mostradorLabels')));
                  else save({ mostradorLabels: ids });
                }}
              />
              {labelsError && (
                <Typography variant="caption" color="error" role="alert">
                  {labelsError}
                </Typography>
              )}
            </Field>
          </>
        )}
        <Divider />
        <AnalysisSection analysis={analysis.data} csat={csat.data} loading={analysis.isLoading} error={analysis.isError} />
      </Box>
      {lead?.cleanLeadId && (
        <>
          <Divider />
          <PersonConversations
            chats={chats}
            currentChatId={chat._id}
            loading={personChats.isLoading}
            linkOf={(other) => `/chat?chatId=${encodeURIComponent(other._id)}`}
          />
        </>
      )}
      {person && (
        <>
          <Divider />
          <PersonContacts contactos={person.contactos} />
        </>
      )}
      {person?._id && (
        <>
          <Divider sx={{ mt: 1 }} />
          <DuplicatesSection person={person as Person & { _id: string }} canMerge={canEdit} />
        </>
      )}
    </Box>
  );
}
