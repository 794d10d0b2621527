import type { ChatSummary, DuplicateCandidate, MergeResult, Person } from '@mostrador/contract';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import ContactPhoneOutlinedIcon from '@mui/icons-material/ContactPhoneOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ChannelIcon, channelLabel } from '../../components/ui/channel-icon';
import { ApiError } from '../../lib/api-client';
import { MergeDialog } from './merge-dialog';
import { personTexts } from './texts';
import { useDuplicates } from './use-person';

/** A section's small uppercase heading. */
export function SectionTitle({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <Typography
      id={id}
      component="h3"
      variant="caption"
      color="text.secondary"
      sx={{ fontWeight: 600, textTransform: 'uppercase', letterSpacing: '0.04em', fontSize: '0.68rem', display: 'block' }}
    >
      {children}
    </Typography>
  );
}

/** What the server said about a field, else its first message. */
export function errorFor(error: unknown, field: string): string | undefined {
  if (!error) return undefined;
  if (!(error instanceof ApiError)) return personTexts.loadError;
  const details = (error.body as { errors?: { details?: Array<{ path?: string; msg?: string }> } } | null)?.errors?.details ?? [];
  return details.find((d) => d.path === field)?.msg ?? error.messages[0];
}

export interface InlineEditProps {
  /** The field's name, for the edit button and the input ("Nombre", "Teléfono de la persona"). */
  label: string;
  value: string | undefined;
  /** Shown instead of the value (a link); the value as text by default. */
  display?: ReactNode;
  /** The button that adds a value when there is none ("Agregar teléfono"). */
  addLabel?: string;
  editable: boolean;
  type?: 'text' | 'tel' | 'email';
  /** Saves the new value ('' clears it); rejects with the server's error, shown under the input. */
  onSave: (value: string) => Promise<unknown>;
  field: string;
}

/** A value with a pencil: Enter or ✓ saves, Esc or ✕ cancels; the server's Spanish error shows under the input. */
export function InlineEdit({ label, value, display, addLabel, editable, type = 'text', onSave, field }: InlineEditProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const inputId = useId();

  const start = () => {
    setDraft(value ?? '');
    setError(undefined);
    setEditing(true);
  };
  const save = async () => {
    if (draft.trim() === (value ?? '')) {
      setEditing(false);
      return;
    }
    setSaving(true);
    try {
      await onSave(draft.trim());
      setEditing(false);
    } catch (e) {
      setError(errorFor(e, field));
    } finally {
      setSaving(false);
    }
  };

  if (editing) {
    return (
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5 }}
      >
        <TextField
          id={inputId}
          size="small"
          label={label}
          type={type}
          value={draft}
          autoFocus
          fullWidth
          disabled={saving}
          error={!!error}
          helperText={error}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setEditing(false);
            }
          }}
        />
        <Tooltip title={personTexts.save}>
          <span>
            <IconButton type="submit" aria-label={personTexts.save} color="primary" disabled={saving}>
              <CheckIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={personTexts.cancel}>
          <span>
            <IconButton aria-label={personTexts.cancel} onClick={() => setEditing(false)} disabled={saving}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    );
  }
  if (!value) {
    return editable && addLabel ? (
      <Button size="small" onClick={start} sx={{ justifySelf: 'start', px: 0.5, minWidth: 0 }}>
        {addLabel}
      </Button>
    ) : (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
      <Box sx={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>{display ?? value}</Box>
      {editable && (
        <Tooltip title={personTexts.edit(label)}>
          <IconButton size="small" aria-label={personTexts.edit(label)} onClick={start}>
            <EditOutlinedIcon sx={{ fontSize: 18 }} />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
}

/** Every conversation of the person, newest activity first; the open one is marked, the others open it. */
export function PersonConversations({ chats, currentChatId, loading, linkOf }: { chats: ChatSummary[]; currentChatId?: string; loading?: boolean; linkOf: (chat: ChatSummary) => string }) {
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Box sx={{ px: 2, pt: 2, pb: 0.5 }}>
        <SectionTitle id={titleId}>{personTexts.conversations}</SectionTitle>
      </Box>
      {chats.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {loading ? personTexts.searching : personTexts.noConversations}
        </Typography>
      ) : (
        <List dense sx={{ pt: 0 }} data-testid="person-conversations">
          {chats.map((chat) => {
            const current = chat._id === currentChatId;
            const icon = (
              // biome-ignore lint/correctness/useJsxKeyInIterable: a child of the keyed item below, not an item
              <ListItemIcon sx={{ minWidth: 32 }}>
                <ChannelIcon platform={chat.platform} sx={{ fontSize: 20 }} />
              </ListItemIcon>
            );
            const text = (
              // biome-ignore lint/correctness/useJsxKeyInIterable: a child of the keyed item below, not an item
              <ListItemText
                primary={`${channelLabel(chat.platform)} · ${chat.contactName}`}
                secondary={current ? personTexts.thisConversation : chat.lastMessagePreview}
                slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
              />
            );
            return current ? (
              <ListItem key={chat._id} aria-current="true" sx={{ bgcolor: 'action.selected' }}>
                {icon}
                {text}
              </ListItem>
            ) : (
              <ListItemButton key={chat._id} component={RouterLink} to={linkOf(chat)}>
                {icon}
                {text}
                {chat.unreadCount > 0 && <Chip size="small" color="primary" label={chat.unreadCount} sx={{ ml: 1, height: 20 }} />}
              </ListItemButton>
            );
          })}
        </List>
      )}
    </Box>
  );
}

/** The hand-typed contacts (contactos) with one of the person's phones or e-mails. */
export function PersonContacts({ contactos }: { contactos: Person['contactos'] }) {
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ px: 2, pt: 1 }}>
      <SectionTitle id={titleId}>{personTexts.contacts}</SectionTitle>
      {contactos.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 0.5 }}>
          {personTexts.noContacts}
        </Typography>
      ) : (
        <List dense disablePadding>
          {contactos.map((c) => (
            <ListItem key={c._id} disableGutters>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <ContactPhoneOutlinedIcon sx={{ fontSize: 20 }} />
              </ListItemIcon>
              <ListItemText primary={c.nombre} secondary={[c.telefono, c.email].filter(Boolean).join(' · ')} slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }} />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

function CandidateRow({ candidate, canMerge, onMerge }: { candidate: DuplicateCandidate; canMerge: boolean; onMerge: () => void }) {
  return (
    <ListItem
      disableGutters
      sx={{ alignItems: 'flex-start', gap: 1, py: 1, borderTop: 1, borderColor: 'divider' }}
      data-testid="duplicate-candidate"
      secondaryAction={undefined}
    >
      <Box sx={{ flex: 1, minWidth: 0, display: 'grid', gap: 0.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {candidate.name}
          </Typography>
          {candidate.platforms.map((p) => (
            <ChannelIcon key={p} platform={p} sx={{ fontSize: 16 }} />
          ))}
        </Box>
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {[candidate.telefono, candidate.email].filter(Boolean).join(' · ') || '—'}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {personTexts.counts(candidate.chats, candidate.messages)}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {candidate.reasons.map((r) => (
            <Chip key={r} size="small" variant="outlined" label={personTexts.reasons[r]} sx={{ height: 20, fontSize: '0.7rem' }} />
          ))}
        </Box>
      </Box>
      {canMerge && (
        <Button size="small" variant="outlined" color="error" onClick={onMerge} aria-label={personTexts.mergeLabel(candidate.name)} sx={{ flexShrink: 0, mt: 0.25 }}>
          {personTexts.merge}
        </Button>
      )}
    </ListItem>
  );
}

/**
 * «Posibles duplicados»: the people sharing a phone or e-mail with this one, and a search for
 * any other; «Unir» asks in the merge dialog, and the result is told here.
 */
export function DuplicatesSection({ person, canMerge, onMerged }: { person: Person & { _id: string }; canMerge: boolean; onMerged?: (result: MergeResult) => void }) {
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const [filter, setFilter] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setFilter(typed.trim().length >= 2 ? typed.trim() : ''), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const automatic = useDuplicates(person._id, '');
  const searched = useDuplicates(filter ? person._id : undefined, filter);
  const [candidate, setCandidate] = useState<DuplicateCandidate | null>(null);
  const [done, setDone] = useState<{ result: MergeResult; name: string } | null>(null);
  // another person's panel: the last result is not theirs
  // biome-ignore lint/correctness/useExhaustiveDependencies: another person clears the result
  useEffect(() => setDone(null), [person._id]);

  const list = (items: DuplicateCandidate[] | undefined) =>
    items && items.length > 0 ? (
      <List dense disablePadding>
        {items.map((c) => (
          <CandidateRow key={c._id} candidate={c} canMerge={canMerge} onMerge={() => setCandidate(c)} />
        ))}
      </List>
    ) : null;

  return (
    <Box component="section" aria-labelledby={titleId} sx={{ px: 2, py: 1.5, display: 'grid', gap: 1 }} data-testid="person-duplicates">
      <SectionTitle id={titleId}>{personTexts.duplicates}</SectionTitle>
      {done && (
        <Alert severity="success" onClose={() => setDone(null)} role="status">
          <strong>{done.result.msg}</strong>
          <br />
          {personTexts.mergedDetail(done.result.moved.chats, done.result.moved.messages, done.result.person.name)}
        </Alert>
      )}
      {automatic.isError ? (
        <Alert severity="warning" action={<Button onClick={() => void automatic.refetch()}>{personTexts.retry}</Button>}>
          {personTexts.loadError}
        </Alert>
      ) : automatic.isLoading ? (
        <Typography variant="body2" color="text.secondary">
          {personTexts.searching}
        </Typography>
      ) : (
        (list(automatic.data?.payload) ?? (
          <Typography variant="body2" color="text.secondary">
            {personTexts.noDuplicates}
          </Typography>
        ))
      )}
      {canMerge && (
        <>
          <TextField
            size="small"
            type="search"
            label={personTexts.searchOther}
            placeholder={personTexts.searchHelp}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            slotProps={{ input: { startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ) } }}
          />
          {filter &&
            (list(searched.data?.payload) ?? (
              <Typography variant="body2" color="text.secondary">
                {searched.isFetching ? personTexts.searching : personTexts.noResults}
              </Typography>
            ))}
        </>
      )}
      <MergeDialog
        kept={{ _id: person._id, name: person.name }}
        candidate={candidate}
        onClose={() => setCandidate(null)}
        onMerged={(result, merged) => {
          setCandidate(null);
          setTyped('');
          setFilter('');
          setDone({ result, name: merged.name });
          onMerged?.(result);
        }}
      />
    </Box>
  );
}
