import type { Board, BoardCard, BoardColumn, LeadPlatform } from '@mostrador/contract';
import { leadPlatforms } from '@mostrador/contract';
import {
  type Announcements,
  type DragEndEvent,
  DndContext,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  type ScreenReaderInstructions,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FilterBar, FilterSelect } from '../../../components/crud/filter-bar';
import { RefField } from '../../../components/crud/ref-field';
import { useRefOptions } from '../../../components/crud/use-resource';
import { channelLabel } from '../../../components/ui/channel-icon';
import { PageHeader } from '../../../components/ui/page-header';
import { useCompanyTimezone } from '../../../lib/company-time';
import { formatMoney, type Money, useCompanyMoney } from '../../../lib/money';
import { formatCount } from '../../../lib/number-format';
import { usePermissions } from '../../../lib/permissions';
import { leadQueryKeys, resourceKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { type BoardFilterQuery, boardApi } from './board-api';
import { BoardCardView } from './board-card';
import { stageOf, withMove } from './board-model';
import { FunnelPanel } from './funnel-panel';

/** The board's filters in the address (`?agente=&canal=&etiquetas=a,b`), like /lead/todos. */
function useBoardFilters() {
  const [params, setParams] = useSearchParams();
  const platform = params.get('canal') ?? '';
  const values = {
    agenteId: params.get('agente') ?? '',
    platform: (leadPlatforms as readonly string[]).includes(platform) ? (platform as LeadPlatform) : '',
    labels: (params.get('etiquetas') ?? '').split(',').filter(Boolean),
  };
  const set = (changes: Partial<{ agenteId: string; platform: string; labels: string[] }>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      const names = { agenteId: 'agente', platform: 'canal', labels: 'etiquetas' } as const;
      for (const [key, value] of Object.entries(changes) as Array<[keyof typeof names, string | string[]]>) {
        const text = Array.isArray(value) ? value.join(',') : value;
        if (text) next.set(names[key], text);
        else next.delete(names[key]);
      }
      return next;
    });
  const query: BoardFilterQuery = {
    ...(values.agenteId ? { agenteId: values.agenteId } : {}),
    ...(values.platform ? { platform: values.platform } : {}),
    ...(values.labels.length ? { mostradorLabels: values.labels.join(',') } : {}),
  };
  const active = [values.agenteId, values.platform, values.labels.length ? 'x' : ''].filter(Boolean).length;
  return { values, query, set, active, clear: () => setParams(new URLSearchParams()) };
}

/** Keyboard dragging goes column by column: ← and → to the previous or next column, ↑ ↓ within it. */
const columnByColumn: KeyboardCoordinateGetter = (event, { context: { droppableRects, collisionRect }, currentCoordinates }) => {
  if (!collisionRect) return undefined;
  if (event.code === 'ArrowDown') return { ...currentCoordinates, y: currentCoordinates.y + 40 };
  if (event.code === 'ArrowUp') return { ...currentCoordinates, y: currentCoordinates.y - 40 };
  if (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft') return undefined;
  event.preventDefault();
  const center = collisionRect.left + collisionRect.width / 2;
  const lefts = [...droppableRects.values()].map((r) => r.left).sort((a, b) => a - b);
  const target = event.code === 'ArrowRight' ? lefts.find((l) => l > center) : [...lefts].reverse().find((l) => l + 1 < collisionRect.left);
  if (target === undefined) return currentCoordinates;
  return { x: currentCoordinates.x + (target + 8 - collisionRect.left), y: currentCoordinates.y };
};

const instructions: ScreenReaderInstructions = {
  draggable: 'Para mover el lead, pulsa espacio o Enter. Con las flechas izquierda y derecha pasa a otra columna; pulsa espacio o Enter otra vez para soltarlo, o Escape para cancelar.',
};

interface ColumnProps {
  column: BoardColumn;
  cards: BoardCard[];
  nextCursor?: string;
  loadingMore: boolean;
  onMore: () => void;
  columns: ReadonlyArray<{ stage: string; name: string }>;
  agentName: (id?: string) => string | undefined;
  labelName: (id: string) => string | undefined;
  money: Money;
  timeZone?: string;
  canMove: boolean;
  onMove: (card: BoardCard, toStage: string) => void;
}

/** One column: its name, count and open orders' value, its cards and «Ver más». A drop target. */
function BoardColumnView({ column, cards, nextCursor, loadingMore, onMore, columns, agentName, labelName, money, timeZone, canMove, onMove }: ColumnProps) {
  const { setNodeRef, isOver } = useDroppable({ id: column.stage, data: { column } });
  const headingId = `column-${column.stage}`;
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      data-testid={`board-column-${column.stage}`}
      variant="outlined"
      sx={{
        flex: { xs: '0 0 85%', sm: '0 0 290px' },
        scrollSnapAlign: 'start',
        display: 'flex',
        flexDirection: 'column',
        bgcolor: isOver ? 'action.hover' : 'grey.50',
        borderColor: isOver ? 'primary.main' : undefined,
        maxHeight: { sm: 'calc(100vh - 260px)' },
        minHeight: 200,
      }}
    >
      <Box sx={{ p: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <Typography id={headingId} component="h2" variant="subtitle2" sx={{ fontWeight: 700, pl: column.custom ? 1 : 0, borderLeft: column.custom ? 3 : 0, borderColor: 'primary.light' }}>
          {column.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" data-testid="column-totals">
          {formatCount(column.count)} {column.count === 1 ? 'lead' : 'leads'} · {formatMoney(column.openOrderValue, money)} en órdenes abiertas
        </Typography>
      </Box>
      <Box sx={{ p: 1, display: 'flex', flexDirection: 'column', gap: 1, overflowY: 'auto', flex: 1 }}>
        {cards.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 1, textAlign: 'center' }}>
            No hay leads en esta etapa
          </Typography>
        )}
        {cards.map((card) => (
          <BoardCardView
            key={card._id}
            card={card}
            stage={column.stage}
            columns={columns}
            agentName={agentName(card.agenteId)}
            labelName={labelName}
            money={money}
            timeZone={timeZone}
            canMove={canMove}
            onMove={onMove}
          />
        ))}
        {nextCursor && (
          <Button size="small" onClick={onMore} disabled={loadingMore}>
            Ver más
          </Button>
        )}
      </Box>
    </Paper>
  );
}

/**
 * /lead/tablero (issue 31, decision 0099): the leads as cards in columns by status — the spec's
 * five, each followed by the company's own stages — with drag and drop (pointer and keyboard) and
 * «Mover a…» on each card, through the same rules as any status change; filters by agent, label
 * and channel; each column's count and open orders' value; «Ver más» per column; and the
 * «Embudo de etapas» panel. On a phone the columns scroll sideways.
 */
export function BoardPage() {
  const { companyId } = useSession();
  const client = useQueryClient();
  const filters = useBoardFilters();
  const money = useCompanyMoney();
  const timeZone = useCompanyTimezone();
  const { can } = usePermissions();
  const canMove = can('leads', 'update');
  const agents = useRefOptions(['agentes']);
  const labels = useRefOptions(['mostrador-labels']);
  const agentNames = useMemo(() => new Map(agents.options.map((o) => [o.id, o.label])), [agents.options]);
  const labelNames = useMemo(() => new Map(labels.options.map((o) => [o.id, o.label])), [labels.options]);
  const agentName = useCallback((id?: string) => (id ? agentNames.get(id) : undefined), [agentNames]);
  const labelName = useCallback((id: string) => labelNames.get(id), [labelNames]);

  const key = leadQueryKeys.board(companyId, filters.query);
  const board = useQuery({ queryKey: key, queryFn: ({ signal }) => boardApi.board(filters.query, signal), placeholderData: keepPreviousData });
  // «Ver más»: the pages after the first, per column, until the board is read again
  const [more, setMore] = useState<{ for?: Board; pages: Record<string, { cards: BoardCard[]; nextCursor?: string }> }>({ pages: {} });
  const pages = more.for === board.data ? more.pages : {};
  const [loadingMore, setLoadingMore] = useState<string | null>(null);
  const loadMore = async (column: BoardColumn) => {
    const cursor = pages[column.stage]?.nextCursor ?? column.nextCursor;
    if (!cursor) return;
    setLoadingMore(column.stage);
    try {
      const page = await boardApi.more(column.stage, cursor, filters.query);
      setMore({ for: board.data, pages: { ...pages, [column.stage]: { cards: [...(pages[column.stage]?.cards ?? []), ...page.cards], nextCursor: page.nextCursor } } });
    } finally {
      setLoadingMore(null);
    }
  };

  const move = useMutation({
    mutationFn: boardApi.move,
    onMutate: async (vars) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<Board>(key);
      if (previous) client.setQueryData(key, withMove(previous, vars.leadId, vars.toStage));
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: resourceKeys('leads').all });
    },
  });
  const onMove = useCallback(
    (card: BoardCard, toStage: string) => {
      const fromStage = stageOf(card);
      if (fromStage === toStage) return;
      move.mutate({ leadId: card._id, toStage, fromStage });
    },
    [move],
  );

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: columnByColumn }));
  const columns = board.data?.columns ?? [];
  const columnNames = useMemo(() => columns.map((c) => ({ stage: c.stage, name: c.name })), [columns]);
  const nameOf = (stage: unknown) => columns.find((c) => c.stage === stage)?.name ?? '';
  const cardName = (id: unknown) => columns.flatMap((c) => c.cards).find((c) => c._id === id)?.name ?? 'El lead';
  const announcements: Announcements = {
    onDragStart: ({ active }) => `${cardName(active.id)} levantado.`,
    onDragOver: ({ active, over }) => (over ? `${cardName(active.id)} sobre «${nameOf(over.id)}».` : `${cardName(active.id)} fuera de las columnas.`),
    onDragEnd: ({ active, over }) => (over ? `${cardName(active.id)} soltado en «${nameOf(over.id)}».` : `${cardName(active.id)} soltado, sin mover.`),
    onDragCancel: ({ active }) => `Movimiento de ${cardName(active.id)} cancelado.`,
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const card = (active.data.current as { card?: BoardCard } | undefined)?.card;
    if (card && over) onMove(card, String(over.id));
  };

  return (
    <Box>
      <PageHeader title="Tablero de leads" subtitle="Tus leads por etapa: arrastra una tarjeta a otra columna o usa «Mover a…»" />
      <FilterBar active={filters.active} onClear={filters.clear} testId="board-filter-bar">
        <FilterSelect label="Agente" value={filters.values.agenteId} options={agents.options.map((o) => ({ value: o.id, label: o.label }))} onChange={(agenteId) => filters.set({ agenteId })} width={180} />
        <FilterSelect label="Canal" value={filters.values.platform} options={leadPlatforms.map((p) => ({ value: p, label: channelLabel(p) }))} onChange={(platform) => filters.set({ platform })} width={160} />
        <Box sx={{ flex: { xs: '1 1 100%', sm: '1 1 200px' }, minWidth: 0, maxWidth: { sm: 420 } }}>
          <RefField id="board-filter-labels" name="etiquetas" label="Etiquetas" keys={['mostrador-labels']} multiple value={filters.values.labels} onChange={(ids) => filters.set({ labels: ids as string[] })} size="small" />
        </Box>
      </FilterBar>
      <FunnelPanel />
      {board.isError && <Alert severity="error">No se pudo cargar el tablero. Por favor, intente nuevamente.</Alert>}
      {board.isPending && <Skeleton variant="rounded" height={320} />}
      {board.data && (
        <DndContext sensors={sensors} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: instructions }}>
          <Box
            data-testid="board-columns"
            sx={{ display: 'flex', gap: 1.5, overflowX: 'auto', scrollSnapType: { xs: 'x mandatory', sm: 'none' }, pb: 1, alignItems: 'flex-start', WebkitOverflowScrolling: 'touch' }}
          >
            {board.data.columns.map((column) => (
              <BoardColumnView
                key={column.stage}
                column={column}
                cards={[...column.cards, ...(pages[column.stage]?.cards ?? [])]}
                nextCursor={pages[column.stage] ? pages[column.stage]?.nextCursor : column.nextCursor}
                loadingMore={loadingMore === column.stage}
                onMore={() => void loadMore(column)}
                columns={columnNames}
                agentName={agentName}
                labelName={labelName}
                money={money}
                timeZone={timeZone}
                canMove={canMove}
                onMove={onMove}
              />
            ))}
          </Box>
        </DndContext>
      )}
    </Box>
  );
}

export default BoardPage;
