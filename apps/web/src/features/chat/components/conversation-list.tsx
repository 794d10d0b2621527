import { type ChatStatus, type ChatSummary, type InboxCounts, type InboxView, inboxViewLabels, leadStatuses, leadStatusLabels, platforms } from '@mostrador/contract';
import ClearIcon from '@mui/icons-material/Clear';
import FilterListIcon from '@mui/icons-material/FilterList';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import MarkChatUnreadOutlinedIcon from '@mui/icons-material/MarkChatUnreadOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import SendIcon from '@mui/icons-material/Send';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import SmartToyIcon from '@mui/icons-material/SmartToyOutlined';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '../../../components/crud/list-constants';
import { useRefOptions } from '../../../components/crud/use-resource';
import { ChannelIcon } from '../../../components/ui/channel-icon';
import { api } from '../../../lib/api-client';
import { useMyAgent } from '../../../lib/my-agent';
import { currentMembership, useSession } from '../../../lib/session';
import type { InboxFilters } from '../api';
import { useNow } from '../hooks/use-now';
import { type InboxStatusChoice, inboxStatusChoices, statusOfChoice } from '../lib/inbox-status';
import { fullDateTime, relativeTime } from '../../../lib/time';
import { channelNames, chatTexts } from '../texts';
import { chatKeys } from '../../../lib/query-keys';

/** The filters that narrow the inbox (search and unread have their own controls). */
const selectFilters = ['platform', 'leadStatus', 'agenteId', 'mostradorLabelId', 'chatGroupId'] as const;

export function activeFilterCount(filters: InboxFilters): number {
  return selectFilters.filter((key) => !!filters[key]).length;
}

export function hasAnyFilter(filters: InboxFilters): boolean {
  return activeFilterCount(filters) > 0 || !!filters.filter || !!filters.unread;
}

/** The tabs' texts when a tab holds nothing (decision 0025). */
const viewTexts = {
  mineEmpty: 'No tienes chats asignados',
  mineEmptyHint: 'Los chats que te asignen, o que tomes de «Sin asignar», aparecen aquí.',
  unassignedEmpty: 'No hay chats sin asignar',
  unassignedEmptyHint: 'Todas las conversaciones tienen quien las atienda.',
  tabs: 'Bandejas',
};

/**
 * The inbox tabs (decision 0025): Mías (the user's agent's chats; only for someone who is an
 * agent), Sin asignar and Todas, with live counts under the other filters. The agent role opens
 * on Mías. The counts come from GET /chats/counts, asked again whenever the listed chats change
 * (a new message, an assignment) and every 20 s.
 */
/**
 * GET /chats/counts with the list's filters, its status and its tab: the tabs' counts (the
 * status counted, the tab not) and the «Estado» select's (the tab counted, the status not).
 * Asked again whenever the listed chats change (a new message, an assignment, a status) and every 20 s.
 */
function useInboxCounts(filters: InboxFilters, status: ChatStatus | undefined, chats: ChatSummary[]) {
  const { companyId } = useSession();
  const query = { ...filters, status };
  const counts = useQuery({
    queryKey: chatKeys.counts(companyId, query),
    queryFn: ({ signal }) => api.get<InboxCounts>('/chats/counts', { query: { ...query }, overlay: false, notify: false, signal }),
    refetchInterval: 20_000,
    placeholderData: (previous) => previous,
    meta: { quiet: true },
  });
  const refetch = counts.refetch;
  const signature = chats.map((c) => `${c._id}:${c.lead?.agenteId ?? ''}:${c.lastMessageAt ?? ''}:${c.status}`).join('|');
  const seen = useRef(signature);
  useEffect(() => {
    if (seen.current === signature) return;
    seen.current = signature;
    void refetch();
  }, [signature, refetch]);
  return counts.data;
}

function InboxTabs({ filters, onFiltersChange, counts }: { filters: InboxFilters; onFiltersChange: (next: InboxFilters) => void; counts: InboxCounts | undefined }) {
  const session = useSession();
  const me = useMyAgent();
  const isAgent = !!me.data?.agente;
  // the agent role works its own chats first; an owner who is also an agent opens on Todas
  const agentRole = currentMembership(session)?.role === 'agent';
  // an agent opens on their own chats, once
  const opened = useRef(false);
  const latest = useRef({ filters, onFiltersChange });
  latest.current = { filters, onFiltersChange };
  useEffect(() => {
    if (opened.current || !me.isSuccess) return;
    opened.current = true;
    if (isAgent && agentRole && !latest.current.filters.view) latest.current.onFiltersChange({ ...latest.current.filters, view: 'mine' });
  }, [me.isSuccess, isAgent, agentRole]);

  const views: InboxView[] = isAgent ? ['mine', 'unassigned', 'all'] : ['unassigned', 'all'];
  const current = filters.view && views.includes(filters.view) ? filters.view : 'all';
  const label = (view: InboxView) => {
    const n = counts?.[view];
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
        {inboxViewLabels[view]}
        {n !== undefined && (
          <Box
            component="span"
            data-testid={`inbox-count-${view}`}
            sx={{ minWidth: 22, px: 0.75, borderRadius: 10, fontSize: '0.72rem', fontWeight: 700, lineHeight: '20px', bgcolor: view === current ? 'primary.main' : 'action.selected', color: view === current ? 'common.white' : 'text.secondary' }}
          >
            {shortCount(n)}
          </Box>
        )}
      </Box>
    );
  };
  return (
    <Tabs
      value={current}
      onChange={(_, view: InboxView) => onFiltersChange({ ...filters, view })}
      variant="fullWidth"
      aria-label={viewTexts.tabs}
      sx={{ minHeight: 40, px: 1, '& .MuiTab-root': { minHeight: 40, minWidth: 0, py: 0.5, px: 0.5, textTransform: 'none', fontWeight: 600, fontSize: '0.875rem', whiteSpace: 'nowrap' } }}
    >
      {views.map((view) => (
        <Tab key={view} value={view} label={label(view)} data-testid={`inbox-tab-${view}`} />
      ))}
    </Tabs>
  );
}

const shortCount = (n: number) => (n > 999 ? `${Math.floor(n / 1000)}k` : String(n));

/** The inbox's «Estado» (decision 0076): Abiertos, Pospuestos, Resueltos, Todos, each with its count. */
function StatusSelect({ value, onChange, counts }: { value: InboxStatusChoice; onChange: (next: InboxStatusChoice) => void; counts: InboxCounts['byStatus'] | undefined }) {
  const countOf = (choice: InboxStatusChoice) => (counts ? (choice === 'all' ? counts.open + counts.snoozed + counts.closed : counts[choice]) : undefined);
  return (
    <TextField
      select
      size="small"
      label={chatTexts.statusFilter}
      value={value}
      onChange={(e) => onChange(e.target.value as InboxStatusChoice)}
      slotProps={{ select: { renderValue: (v) => chatTexts.statusOptions[v as InboxStatusChoice] }, htmlInput: { 'data-testid': 'inbox-status' } }}
      sx={{ minWidth: 132 }}
    >
      {inboxStatusChoices.map((choice) => {
        const n = countOf(choice);
        return (
          <MenuItem key={choice} value={choice} data-testid={`inbox-status-${choice}`}>
            <Box component="span" sx={{ flex: 1 }}>
              {chatTexts.statusOptions[choice]}
            </Box>
            {n !== undefined && (
              <Box component="span" data-testid={`inbox-status-count-${choice}`} sx={{ ml: 2, color: 'text.secondary', fontSize: '0.8rem', fontWeight: 600 }}>
                {shortCount(n)}
              </Box>
            )}
          </MenuItem>
        );
      })}
    </TextField>
  );
}

/** What an empty list says: per tab under Abiertos, per status otherwise; a company without chats is told how to get them. */
function emptyTexts(view: InboxFilters['view'], choice: InboxStatusChoice, counts: InboxCounts | undefined): { title: string; hint?: string; connect?: boolean } {
  const none = !counts || counts.byStatus.open + counts.byStatus.snoozed + counts.byStatus.closed === 0;
  if (choice === 'snoozed') return { title: chatTexts.emptySnoozed, hint: chatTexts.emptySnoozedHint };
  if (choice === 'closed') return { title: chatTexts.emptyClosed, hint: chatTexts.emptyClosedHint };
  if (view === 'mine') return { title: viewTexts.mineEmpty, hint: viewTexts.mineEmptyHint };
  if (view === 'unassigned') return { title: viewTexts.unassignedEmpty, hint: viewTexts.unassignedEmptyHint };
  if (choice === 'open' && !none) return { title: chatTexts.emptyOpen, hint: chatTexts.emptyOpenHint };
  return { title: chatTexts.empty, hint: chatTexts.emptyHint, connect: true };
}

function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const lettered = words.filter((w) => /^\p{L}/u.test(w));
  const parts = lettered.length > 0 ? lettered : words;
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

function FilterSelect({
  label,
  value,
  onChange,
  options,
  allLabel = chatTexts.all,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  allLabel?: string;
}) {
  return (
    <TextField select size="small" label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}>
      <MenuItem value="">{allLabel}</MenuItem>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

function FiltersPanel({ filters, onChange }: { filters: InboxFilters; onChange: (next: InboxFilters) => void }) {
  const agents = useRefOptions(['agentes']);
  const labels = useRefOptions(['mostrador-labels']);
  const groups = useRefOptions(['chat_groups']);
  const set = (key: (typeof selectFilters)[number]) => (value: string | undefined) => onChange({ ...filters, [key]: value });
  const asOptions = (list: { id: string; label: string }[]) => list.map((o) => ({ value: o.id, label: o.label }));
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.25, px: 2, pb: 1.5 }}>
      <FilterSelect label={chatTexts.channel} value={filters.platform} onChange={set('platform')} options={platforms.map((p) => ({ value: p, label: channelNames[p] }))} />
      <FilterSelect label={chatTexts.leadStatus} value={filters.leadStatus} onChange={set('leadStatus')} options={leadStatuses.map((s) => ({ value: s, label: leadStatusLabels[s] }))} />
      <FilterSelect label={chatTexts.agent} value={filters.agenteId} onChange={set('agenteId')} options={asOptions(agents.options)} />
      <FilterSelect label={chatTexts.label} value={filters.mostradorLabelId} onChange={set('mostradorLabelId')} options={asOptions(labels.options)} allLabel={chatTexts.allFem} />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <FilterSelect label={chatTexts.chatGroup} value={filters.chatGroupId} onChange={set('chatGroupId')} options={asOptions(groups.options)} />
      </Box>
    </Box>
  );
}

function ConversationItem({
  chat,
  selected,
  now,
  selectMode,
  checked,
  onOpen,
  onToggle,
}: {
  chat: ChatSummary;
  selected: boolean;
  now: number;
  selectMode: boolean;
  checked: boolean;
  onOpen: () => void;
  onToggle: () => void;
}) {
  const unread = chat.unreadCount > 0;
  const labelId = `chat-${chat._id}-name`;
  return (
    <ListItemButton
      selected={selected}
      onClick={selectMode ? onToggle : onOpen}
      aria-current={selected ? 'true' : undefined}
      data-testid="chat-item"
      data-chat-id={chat._id}
      sx={{
        gap: 1.25,
        px: 2,
        py: 1.25,
        alignItems: 'flex-start',
        borderBottom: 1,
        borderColor: 'divider',
        '&.Mui-selected': { bgcolor: 'rgba(40, 21, 108, 0.07)' },
        '&.Mui-selected:hover': { bgcolor: 'rgba(40, 21, 108, 0.1)' },
      }}
    >
      {selectMode && (
        <Checkbox edge="start" checked={checked} tabIndex={-1} disableRipple sx={{ p: 0.5, mt: 0.5 }} slotProps={{ input: { 'aria-labelledby': labelId } }} />
      )}
      <Badge
        overlap="circular"
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        badgeContent={
          <Box sx={{ bgcolor: 'background.paper', borderRadius: '50%', display: 'flex', p: '1px' }}>
            <ChannelIcon platform={chat.platform} label={channelNames[chat.platform]} sx={{ fontSize: 16 }} />
          </Box>
        }
      >
        <Avatar sx={{ width: 42, height: 42, bgcolor: '#E9E5F8', color: 'primary.main', fontSize: '0.95rem', fontWeight: 700 }}>{initialsOf(chat.contactName)}</Avatar>
      </Badge>
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography id={labelId} noWrap sx={{ flex: 1, minWidth: 0, fontWeight: unread ? 700 : 600, fontSize: '0.925rem' }}>
            {chat.contactName}
          </Typography>
          <Tooltip title={fullDateTime(chat.lastMessageAt ?? chat.updatedAt)}>
            <Typography component="time" dateTime={chat.lastMessageAt ?? chat.updatedAt} variant="caption" sx={{ flexShrink: 0, color: unread ? 'primary.main' : 'text.secondary', fontWeight: unread ? 700 : 400 }}>
              {relativeTime(chat.lastMessageAt ?? chat.updatedAt, now)}
            </Typography>
          </Tooltip>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.25 }}>
          <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0, color: unread ? 'text.primary' : 'text.secondary' }} data-testid="chat-preview">
            {chat.lastMessagePreview ?? ''}
          </Typography>
          {unread && (
            <Box
              component="span"
              aria-label={chatTexts.unread(chat.unreadCount)}
              data-testid="unread-badge"
              sx={{ flexShrink: 0, minWidth: 20, height: 20, px: 0.75, borderRadius: 10, bgcolor: 'secondary.main', color: 'common.white', fontSize: '0.72rem', fontWeight: 700, display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}
            >
              {chat.unreadCount > 99 ? '99+' : chat.unreadCount}
            </Box>
          )}
        </Box>
        {chat.bot && (
          // a Dialogflow bot answers the chat, or handed it to a person (decision 0053)
          <Tooltip title={chat.bot.state === 'handed_over' ? (chat.bot.reason ?? '') : `Responde ${chat.bot.name}`}>
            <Chip
              size="small"
              variant="outlined"
              data-testid="chat-bot-marker"
              icon={chat.bot.state === 'handed_over' ? <SupportAgentIcon /> : <SmartToyIcon />}
              color={chat.bot.state === 'handed_over' ? 'warning' : 'default'}
              label={chat.bot.state === 'handed_over' ? 'Para una persona' : `Bot: ${chat.bot.name}`}
              sx={{ mt: 0.5, height: 22, maxWidth: '100%', '& .MuiChip-label': { px: 0.75, fontSize: '0.72rem' } }}
            />
          </Tooltip>
        )}
      </Box>
    </ListItemButton>
  );
}

export interface ConversationListProps {
  chats: ChatSummary[];
  loading: boolean;
  fetching: boolean;
  failed: boolean;
  onRetry: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  filters: InboxFilters;
  onFiltersChange: (next: InboxFilters) => void;
  /** The «Estado» select (decision 0076): Abiertos by default. */
  statusChoice?: InboxStatusChoice;
  onStatusChoiceChange?: (next: InboxStatusChoice) => void;
  selectedId: string | undefined;
  onOpen: (chatId: string) => void;
  /** Mass message: checkbox mode and its selection (absent when the user may not send). */
  selection?: {
    active: boolean;
    ids: ReadonlySet<string>;
    onActivate: (active: boolean) => void;
    onToggle: (chatId: string) => void;
    onSend: () => void;
  };
}

/** The inbox: search, filters, the conversations newest first with unread badges, and "Cargar más". */
export function ConversationList({
  chats,
  loading,
  fetching,
  failed,
  onRetry,
  hasMore,
  loadingMore,
  onLoadMore,
  filters,
  onFiltersChange,
  statusChoice = 'open',
  onStatusChoiceChange,
  selectedId,
  onOpen,
  selection,
}: ConversationListProps) {
  const now = useNow();
  const counts = useInboxCounts(filters, statusOfChoice(statusChoice), chats);
  const empty = emptyTexts(filters.view, statusChoice, counts);
  const [search, setSearch] = useState(filters.filter ?? '');
  const [showFilters, setShowFilters] = useState(false);
  const latest = useRef({ filters, onFiltersChange });
  latest.current = { filters, onFiltersChange };
  useEffect(() => {
    const text = search.trim();
    if (text === (latest.current.filters.filter ?? '')) return;
    const timer = setTimeout(() => latest.current.onFiltersChange({ ...latest.current.filters, filter: text || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  // Filters cleared from outside (the "Limpiar filtros" button) clear the box.
  useEffect(() => {
    if (!filters.filter) setSearch((s) => (s.trim() ? '' : s));
  }, [filters.filter]);

  const count = activeFilterCount(filters);
  const filtered = hasAnyFilter(filters);
  const clearAll = () => {
    setSearch('');
    // the tab stays: clearing filters is not leaving "Mías"
    onFiltersChange(filters.view ? { view: filters.view } : {});
  };
  const selecting = !!selection?.active;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minWidth: 0, bgcolor: 'background.paper' }}>
      <Box sx={{ px: 2, pt: 1.75, pb: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="h1" component="h1" sx={{ fontSize: '1.35rem', flex: 1 }}>
          {chatTexts.title}
        </Typography>
        {selection && (chats.length > 0 || selecting) && (
          <Tooltip describeChild title={selecting ? chatTexts.cancelSelect : chatTexts.selectMode}>
            <Button size="small" variant={selecting ? 'outlined' : 'text'} onClick={() => selection.onActivate(!selecting)}>
              {selecting ? chatTexts.cancel : chatTexts.select}
            </Button>
          </Tooltip>
        )}
      </Box>
      <InboxTabs filters={filters} onFiltersChange={onFiltersChange} counts={counts} />
      <Box sx={{ px: 2, pt: 1, pb: 1, display: 'flex', gap: 1, alignItems: 'center' }}>
        <TextField
          size="small"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={chatTexts.searchPlaceholder}
          slotProps={{
            htmlInput: { 'aria-label': chatTexts.search },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Tooltip title={chatTexts.filters}>
          <IconButton aria-label={chatTexts.filters} aria-expanded={showFilters} onClick={() => setShowFilters((v) => !v)} color={count ? 'primary' : 'default'}>
            <Badge badgeContent={count} color="primary">
              <FilterListIcon />
            </Badge>
          </IconButton>
        </Tooltip>
      </Box>
      <Box sx={{ px: 2, pb: 1, display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {onStatusChoiceChange && <StatusSelect value={statusChoice} onChange={onStatusChoiceChange} counts={counts?.byStatus} />}
        <Chip
          size="small"
          icon={<MarkChatUnreadOutlinedIcon />}
          label={chatTexts.onlyUnread}
          color={filters.unread ? 'primary' : 'default'}
          variant={filters.unread ? 'filled' : 'outlined'}
          aria-pressed={!!filters.unread}
          onClick={() => onFiltersChange({ ...filters, unread: filters.unread ? undefined : true })}
        />
        {filtered && <Chip size="small" icon={<ClearIcon />} label={chatTexts.clearFilters} variant="outlined" onClick={clearAll} />}
      </Box>
      <Collapse in={showFilters}>
        <FiltersPanel filters={filters} onChange={onFiltersChange} />
      </Collapse>
      {selecting && selection && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1, bgcolor: 'rgba(40, 21, 108, 0.06)', borderTop: 1, borderColor: 'divider' }}>
          <Typography variant="body2" sx={{ flex: 1 }} data-testid="selected-count">
            {chatTexts.selected(selection.ids.size)}
          </Typography>
          <Button size="small" variant="contained" startIcon={<SendIcon />} disabled={selection.ids.size === 0} onClick={selection.onSend}>
            {chatTexts.massive}
          </Button>
        </Box>
      )}
      <Box sx={{ height: 4, borderTop: 1, borderColor: 'divider' }}>{fetching && !loading && <LinearProgress sx={{ height: 2 }} />}</Box>
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        {loading && (
          <Box sx={{ px: 2 }}>
            {[0, 1, 2, 3, 4].map((i) => (
              <Box key={i} sx={{ display: 'flex', gap: 1.5, py: 1.25 }}>
                <Skeleton variant="circular" width={42} height={42} />
                <Box sx={{ flex: 1 }}>
                  <Skeleton width="60%" />
                  <Skeleton width="85%" />
                </Box>
              </Box>
            ))}
          </Box>
        )}
        {failed && !loading && chats.length === 0 && (
          <Box sx={{ p: 3, textAlign: 'center' }}>
            <Typography color="text.secondary" gutterBottom>
              {chatTexts.loadError}
            </Typography>
            <Button onClick={onRetry}>{chatTexts.retry}</Button>
          </Box>
        )}
        {!loading && !failed && chats.length === 0 && (
          <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', textAlign: 'center', px: 3, py: 6 }} data-testid={filtered ? 'inbox-no-results' : 'inbox-empty'}>
            {filtered ? <SearchOffIcon fontSize="large" /> : <ForumOutlinedIcon fontSize="large" />}
            <Typography sx={{ fontWeight: 600 }}>{filtered ? chatTexts.noResults : empty.title}</Typography>
            {filtered ? (
              <Button size="small" onClick={clearAll}>
                {chatTexts.clearFilters}
              </Button>
            ) : (
              <>
                {empty.hint && <Typography variant="body2">{empty.hint}</Typography>}
                {empty.connect && (
                  <Link component={RouterLink} to="/whatsapp" sx={{ fontWeight: 600 }}>
                    {chatTexts.emptyLink}
                  </Link>
                )}
              </>
            )}
          </Box>
        )}
        {chats.length > 0 && (
          <List disablePadding aria-label={chatTexts.inbox}>
            {chats.map((chat) => (
              <ConversationItem
                key={chat._id}
                chat={chat}
                now={now}
                selected={!selecting && chat._id === selectedId}
                selectMode={selecting}
                checked={!!selection?.ids.has(chat._id)}
                onOpen={() => onOpen(chat._id)}
                onToggle={() => selection?.onToggle(chat._id)}
              />
            ))}
          </List>
        )}
        {hasMore && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 1.5 }}>
            <Button variant="outlined" size="small" onClick={onLoadMore} disabled={loadingMore}>
              {loadingMore ? chatTexts.loading : chatTexts.loadMore}
            </Button>
          </Box>
        )}
      </Box>
    </Box>
  );
}
