import AddIcon from '@mui/icons-material/Add';
import { SEARCH_DEBOUNCE_MS } from './list-constants';
import ClearIcon from '@mui/icons-material/Clear';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import SearchIcon from '@mui/icons-material/Search';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useConfirm } from '../ui/confirm-dialog';
import { PageHeader } from '../ui/page-header';
import { displayLocale, useT } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { setPreference, usePreferences } from '../../lib/session-store';
import { CellValue } from './cell-value';
import { InlineSelect } from './inline-select';
import { labelOf } from './common-labels';
import { type FieldSpec, fieldSpecsOf } from './field-model';
import { PageButtons } from './page-buttons';
import { optionLabel } from './field-input';
import { PAGE_SIZES } from './pagination';
import { ResourceFormDialog } from './resource-form-dialog';
import type { ColumnConfig, FieldConfig, ListFilters, ListViewContext, ResourceRecord, ScreenConfig } from './types';
import { displayNameOf, type ListParams, useDeleteRecord, useRefOptions, useResourceList } from './use-resource';

/** Hidden on screen, still read by screen readers (px: a bare 1 in sx means 100%). */
const SCREEN_READER_ONLY = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Wait after the last keystroke before searching. */
export { SEARCH_DEBOUNCE_MS };

type ResolvedColumn = ColumnConfig & {
  inline?: boolean;
  label: string;
  spec?: FieldSpec;
  config?: FieldConfig;
  sortable: boolean;
};

/** The list's state in the address (`?q=&page=&sort=&order=`): reloads and the back button keep it. */
function useListState(config: ScreenConfig) {
  const { resource } = config;
  const [params, setParams] = useSearchParams();
  const filter = params.get('q') ?? '';
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const askedSort = params.get('sort');
  const sort = askedSort && resource.sortable.includes(askedSort) ? askedSort : resource.defaultSort.field;
  const askedOrder = params.get('order');
  const order: 'asc' | 'desc' =
    askedOrder === 'asc' || askedOrder === 'desc' ? askedOrder : sort === resource.defaultSort.field ? resource.defaultSort.order : 'asc';
  const update = (changes: Record<string, string | number | undefined>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '' || (key === 'page' && value === 1)) next.delete(key);
          else next.set(key, String(value));
        }
        return next;
      },
      { replace: true },
    );
  return { filter, page, sort, order, update };
}

function EmptyRow({ colSpan, icon, children, testId }: { colSpan: number; icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} sx={{ py: 8, borderBottom: 0 }}>
        <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', textAlign: 'center' }} data-testid={testId}>
          {icon}
          <Typography>{children}</Typography>
        </Box>
      </TableCell>
    </TableRow>
  );
}

/** Only the filters with a value. */
function presentFilters(filters: ListFilters | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters ?? {})) if (value) out[key] = value;
  return out;
}

export interface ResourceListPageProps {
  config: ScreenConfig;
  /** Field filters the user chose (a filter bar): sent with the list; an empty list then reads as no results. */
  filters?: ListFilters;
  /** The filter bar, shown under the search row. */
  filterBar?: ReactNode;
  /** More buttons beside New in the header (a view switch, bulk actions). */
  headerActions?: ReactNode;
  /** A row click does this instead of opening the edit form (a detail drawer). */
  onRowClick?: (row: ResourceRecord) => void;
}

/**
 * The one list screen of every standard resource: title, New, search, sortable columns,
 * server-side pages, Edit and Delete, all driven by a screen config (`features/<feature>/<key>-screen.ts`).
 * Screens with more (the lead buckets) add fixed filters, toolbar content, row actions and
 * cells edited in place through the config, and a filter bar through the props.
 */
export function ResourceListPage({ config, filters: chosenFilters, filterBar, headerActions, onRowClick }: ResourceListPageProps) {
  const t = useT();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const { resource } = config;
  const { itemsPerPage } = usePreferences();
  const { filter, page, sort, order, update } = useListState(config);
  // The effects below call the latest `update` without re-running when it is rebuilt.
  const updateRef = useRef(update);
  updateRef.current = update;
  const permissions = usePermissions();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));

  // Search box: typed text, sent as `filter` after a pause.
  const [search, setSearch] = useState(filter);
  const pushed = useRef(filter);
  useEffect(() => {
    if (filter !== pushed.current) {
      pushed.current = filter;
      setSearch(filter);
    }
  }, [filter]);
  useEffect(() => {
    const text = search.trim();
    if (text === pushed.current) return;
    const timer = setTimeout(() => {
      pushed.current = text;
      updateRef.current({ q: text, page: undefined });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const chosen = presentFilters(chosenFilters);
  const fieldFilters = { ...presentFilters(config.filters), ...chosen };
  const searching = !!filter || Object.keys(chosen).length > 0;
  // "Next page" follows the cursor the server gave for the page shown (decision 0023: no OFFSET,
  // so page 2,000 costs what page 1 does); a jump to any other page names its number. The cursor
  // holds only for the same search, filters, sort and page size it was answered for.
  const basis = JSON.stringify([fieldFilters, filter, sort, order, itemsPerPage]);
  const [forward, setForward] = useState<{ page: number; cursor: string; basis: string }>();
  const cursor = forward && forward.page === page && forward.basis === basis ? forward.cursor : undefined;
  const params: ListParams = { ...fieldFilters, sort, order, page, limit: itemsPerPage, filter: filter || undefined, cursor };
  // a screen with its own view reads its records itself
  const list = useResourceList(resource, params, !config.view);
  const rows = list.data?.payload ?? [];
  const totalDocs = list.data?.totalDocs ?? 0;
  const totalPages = list.data?.totalPages ?? 1;

  const goToPage = (next: number) => {
    const shown = list.data && !list.isPlaceholderData ? list.data : undefined;
    setForward(next === page + 1 && shown?.nextCursor ? { page: next, cursor: shown.nextCursor, basis } : undefined);
    update({ page: next });
  };

  // A page past the end (after a delete, or fewer items per page): go to the last one.
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > 1 && page > list.data.totalPages) {
      updateRef.current({ page: Math.max(1, list.data.totalPages) });
    }
  }, [list.data, list.isPlaceholderData, page]);

  const specs = useMemo(() => fieldSpecsOf(resource.fields, { refs: resource.refs, writeOnly: resource.writeOnly }), [resource]);
  const fieldConfigs = (config.fields ?? {}) as Record<string, FieldConfig | undefined>;
  const columns: ResolvedColumn[] = useMemo(() => {
    const byName = new Map(specs.map((s) => [s.name, s]));
    return config.columns.map((column, index) => {
      const c: ColumnConfig = typeof column === 'string' ? { field: column } : column;
      const fieldConfig = fieldConfigs[c.field];
      return {
        ...c,
        hideOnMobile: c.hideOnMobile ?? index >= 2,
        label: labelOf(c.field, c.label ?? fieldConfig?.label),
        spec: byName.get(c.field),
        config: fieldConfig,
        sortable: resource.sortable.includes(c.field),
      };
    });
  }, [config.columns, specs, fieldConfigs, resource.sortable]);

  const refKeys = [...new Set(columns.flatMap((c) => (c.spec?.widget === 'ref' || c.spec?.widget === 'refs' ? (c.spec.refs ?? []) : [])))];
  const refs = useRefOptions(refKeys, refKeys.length > 0 && !config.view);
  const refNames = useMemo(() => new Map(refs.options.map((o) => [o.id, o.label])), [refs.options]);

  const ops = new Set(resource.operations);
  const canCreate = config.create !== false && ops.has('create') && permissions.can(resource.module, 'create');
  const canEdit = config.edit !== false && (ops.has('update') || !!config.editPath) && permissions.can(resource.module, 'update');
  const canDelete = config.delete !== false && ops.has('delete') && permissions.can(resource.module, 'delete');
  const hasActions = canEdit || canDelete || !!config.detail || !!config.rowActions;
  const selectable = !!config.selection;
  const inlineOptions = (c: ResolvedColumn): Array<{ value: string; label: string }> | undefined => {
    if (!c.inline || !c.spec || !permissions.can(resource.module, 'update') || !ops.has('update')) return undefined;
    if (c.spec.widget === 'enum') return (c.spec.options ?? []).map((value) => ({ value, label: optionLabel(value, c.config) }));
    if (c.spec.widget === 'ref') {
      const keys = c.spec.refs ?? [];
      return refs.options.filter((o) => keys.includes(o.key)).map((o) => ({ value: o.id, label: o.label }));
    }
    return undefined;
  };

  const [dialog, setDialog] = useState<{ open: boolean; record?: ResourceRecord; defaults?: Record<string, unknown> }>({ open: false });
  const dialogConfig = useMemo(() => (dialog.defaults ? { ...config, defaults: dialog.defaults } : config), [config, dialog.defaults]);
  const remove = useDeleteRecord(resource);

  // The chosen rows (ScreenConfig.selection), by id, kept across pages and searches.
  const [selected, setSelected] = useState<ReadonlyMap<string, ResourceRecord>>(new Map());
  const clearSelection = () => setSelected(new Map());
  const toggle = (row: ResourceRecord) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(row._id)) next.delete(row._id);
      else next.set(row._id, row);
      return next;
    });
  const pageChosen = rows.filter((r) => selected.has(r._id)).length;
  const togglePage = () =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (pageChosen === rows.length) for (const r of rows) next.delete(r._id);
      else for (const r of rows) next.set(r._id, r);
      return next;
    });

  const edit = (row: ResourceRecord) => {
    if (config.editPath) navigate(config.editPath(row));
    else setDialog({ open: true, record: row });
  };

  const onDelete = async (row: ResourceRecord) => {
    const name = displayNameOf(row, config.displayField);
    const accepted = await confirm({ message: name && name !== row._id ? t('crud.confirmDelete', { name }) : t('crud.confirmDeleteUnnamed') });
    if (!accepted) return;
    try {
      await remove.mutateAsync(row);
      if (rows.length === 1 && page > 1) update({ page: page - 1 });
    } catch {
      // The api client already showed why.
    }
  };

  const sortBy = (field: string) => {
    const nextOrder = sort === field ? (order === 'asc' ? 'desc' : 'asc') : 'asc';
    update({ sort: field, order: nextOrder, page: undefined });
  };

  const viewContext: ListViewContext = {
    search: filter,
    canCreate,
    canEdit,
    canDelete,
    create: (defaults) => setDialog({ open: true, defaults }),
    edit,
    remove: onDelete,
  };

  const colSpan = columns.length + (hasActions ? 1 : 0) + (selectable ? 1 : 0);
  const mobileHidden = { display: { xs: 'none', sm: 'table-cell' } } as const;
  const from = totalDocs === 0 ? 0 : (page - 1) * itemsPerPage + 1;
  const to = Math.min(totalDocs, page * itemsPerPage);

  let body: ReactNode;
  if (list.isLoading) {
    body = Array.from({ length: 3 }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
      <TableRow key={i}>
        {selectable && <TableCell padding="checkbox" />}
        {columns.map((c) => (
          <TableCell key={c.field} sx={c.hideOnMobile ? mobileHidden : undefined}>
            <Skeleton />
          </TableCell>
        ))}
        {hasActions && <TableCell />}
      </TableRow>
    ));
  } else if (list.isError && !list.data) {
    body = (
      <EmptyRow colSpan={colSpan} icon={<InboxOutlinedIcon fontSize="large" />} testId="load-error">
        {t('crud.loadError')}{' '}
        <Button size="small" onClick={() => list.refetch()}>
          {t('crud.retry')}
        </Button>
      </EmptyRow>
    );
  } else if (rows.length === 0) {
    body = searching ? (
      <EmptyRow colSpan={colSpan} icon={<SearchOffIcon fontSize="large" />} testId="no-results">
        {config.noResultsMessage}
      </EmptyRow>
    ) : (
      <EmptyRow colSpan={colSpan} icon={<InboxOutlinedIcon fontSize="large" />} testId="empty-state">
        {config.emptyMessage}
      </EmptyRow>
    );
  } else {
    body = rows.map((row) => {
      const name = displayNameOf(row, config.displayField);
      const open = onRowClick ? () => onRowClick(row) : canEdit ? () => edit(row) : undefined;
      return (
        <TableRow
          key={row._id}
          hover
          selected={selected.has(row._id)}
          onClick={open}
          sx={{ cursor: open ? 'pointer' : undefined, '&:last-child td': { borderBottom: 0 } }}
        >
          {selectable && (
            <TableCell padding="checkbox" onClick={(event) => event.stopPropagation()}>
              <Checkbox checked={selected.has(row._id)} onChange={() => toggle(row)} slotProps={{ input: { 'aria-label': t('crud.selectRow', { name }) } }} />
            </TableCell>
          )}
          {columns.map((c) => {
            const options = inlineOptions(c);
            return (
              <TableCell key={c.field} sx={{ maxWidth: 320, overflowWrap: 'break-word', ...(c.hideOnMobile ? mobileHidden : {}) }}>
                {options ? (
                  <InlineSelect
                    resource={resource}
                    row={row}
                    field={c.field}
                    label={c.label}
                    recordName={name}
                    options={options}
                    clearable={c.spec ? !c.spec.required : false}
                  />
                ) : c.render ? (
                  c.render(row)
                ) : (
                  <CellValue spec={c.spec} config={c.config} field={c.field} row={row} refNames={refNames} />
                )}
              </TableCell>
            );
          })}
          {hasActions && (
            <TableCell align="right" sx={{ whiteSpace: 'nowrap', py: 0.5 }} onClick={(event) => event.stopPropagation()}>
              {config.rowActions?.(row)}
              {config.detail && (
                <Tooltip title={config.detail.label}>
                  <IconButton component={RouterLink} to={config.detail.path(row)} aria-label={`${config.detail.label}: ${name}`} size="small">
                    {config.detail.icon ? <config.detail.icon fontSize="small" /> : <EditOutlinedIcon fontSize="small" />}
                  </IconButton>
                </Tooltip>
              )}
              {canEdit && (
                <Tooltip title={t('crud.edit')}>
                  <IconButton aria-label={`${t('crud.edit')}: ${name}`} size="small" onClick={() => edit(row)}>
                    <EditOutlinedIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
              {canDelete && (
                <Tooltip title={t('crud.delete')}>
                  <IconButton aria-label={`${t('crud.delete')}: ${name}`} size="small" color="error" onClick={() => onDelete(row)}>
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </TableCell>
          )}
        </TableRow>
      );
    });
  }

  return (
    <>
      <PageHeader
        title={config.title}
        subtitle={config.subtitle}
        actions={
          canCreate || headerActions ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              {headerActions}
              {canCreate && (
                <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ open: true })} sx={{ flexShrink: 0 }}>
                  {config.newLabel}
                </Button>
              )}
            </Box>
          ) : undefined
        }
      />
      {config.panel?.()}
      <Card>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', p: 2 }}>
          <TextField
            size="small"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder={t('crud.search')}
            fullWidth={false}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 360px' } }}
            slotProps={{
              htmlInput: { 'aria-label': t('crud.search'), maxLength: 200 },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
                endAdornment: search ? (
                  <InputAdornment position="end">
                    <IconButton size="small" aria-label={t('crud.clearSearch')} onClick={() => setSearch('')} edge="end">
                      <ClearIcon fontSize="small" />
                    </IconButton>
                  </InputAdornment>
                ) : undefined,
              },
            }}
          />
          {config.toolbar?.({ ...fieldFilters, filter: filter || undefined })}
          <Box sx={{ flex: 1 }} />
          {list.data && !config.view && (
            <Typography variant="body2" color="text.secondary" data-testid="total-docs">
              {totalDocs === 1 ? t('crud.totalOne') : t('crud.total', { count: totalDocs.toLocaleString(displayLocale()) })}
            </Typography>
          )}
        </Box>
        {filterBar}
        {selectable && selected.size > 0 && (
          <Box
            role="region"
            aria-label={selected.size === 1 ? t('crud.selectedOne') : t('crud.selected', { count: selected.size })}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 2, py: 1, bgcolor: 'action.selected', borderTop: 1, borderColor: 'divider' }}
          >
            <Typography variant="body2" sx={{ fontWeight: 600, mr: 1 }} data-testid="selected-count">
              {selected.size === 1 ? t('crud.selectedOne') : t('crud.selected', { count: selected.size })}
            </Typography>
            {config.selection?.actions([...selected.values()], clearSelection)}
            <Button size="small" onClick={clearSelection}>
              {t('crud.clearSelection')}
            </Button>
          </Box>
        )}
        {config.view ? (
          config.view(viewContext)
        ) : (
          <>
            <Box sx={{ height: 4 }}>{list.isFetching && !list.isLoading && <LinearProgress aria-label={t('app.loading')} />}</Box>
            <TableContainer>
              <Table
                aria-label={config.title}
                aria-busy={list.isFetching || undefined}
                sx={{ '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } }, '& .MuiTableCell-root:first-of-type': { pl: 2 } }}
              >
                <TableHead>
                  <TableRow>
                    {selectable && (
                      <TableCell padding="checkbox">
                        <Checkbox
                          checked={rows.length > 0 && pageChosen === rows.length}
                          indeterminate={pageChosen > 0 && pageChosen < rows.length}
                          disabled={rows.length === 0}
                          onChange={togglePage}
                          slotProps={{ input: { 'aria-label': t('crud.selectPage') } }}
                        />
                      </TableCell>
                    )}
                    {columns.map((c) => (
                      <TableCell
                        key={c.field}
                        sortDirection={sort === c.field ? order : false}
                        sx={{ fontWeight: 600, whiteSpace: 'nowrap', ...(c.hideOnMobile ? mobileHidden : {}) }}
                      >
                        {c.sortable ? (
                          <TableSortLabel active={sort === c.field} direction={sort === c.field ? order : 'asc'} onClick={() => sortBy(c.field)}>
                            {c.label}
                          </TableSortLabel>
                        ) : (
                          c.label
                        )}
                      </TableCell>
                    ))}
                    {hasActions && (
                      <TableCell align="right" sx={{ fontWeight: 600, position: 'relative' }}>
                        {/* On phones the icons speak for themselves: the header stays for screen readers only */}
                        <Box component="span" sx={phone ? SCREEN_READER_ONLY : undefined}>
                          {t('crud.actions')}
                        </Box>
                      </TableCell>
                    )}
                  </TableRow>
                </TableHead>
                <TableBody>{body}</TableBody>
              </Table>
            </TableContainer>
            <Box
              sx={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'flex-end',
                flexWrap: 'wrap',
                gap: 2,
                px: 2,
                py: 1.5,
                borderTop: 1,
                borderColor: 'divider',
              }}
            >
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography variant="body2" color="text.secondary" component="label" htmlFor="rows-per-page">
                  {t('crud.rowsPerPage')}
                </Typography>
                <TextField
                  id="rows-per-page"
                  select
                  size="small"
                  variant="standard"
                  fullWidth={false}
                  value={PAGE_SIZES.includes(itemsPerPage as never) ? itemsPerPage : ''}
                  onChange={(event) => {
                    setPreference('itemsPerPage', Number(event.target.value));
                    update({ page: undefined });
                  }}
                  slotProps={{ select: { 'aria-label': t('crud.rowsPerPage') } as object }}
                >
                  {PAGE_SIZES.map((size) => (
                    <MenuItem key={size} value={size}>
                      {size}
                    </MenuItem>
                  ))}
                </TextField>
              </Box>
              <Typography variant="body2" color="text.secondary">
                {t('crud.range', { from, to, total: totalDocs })}
              </Typography>
              <PageButtons page={page} totalPages={totalPages} onChange={goToPage} />
            </Box>
          </>
        )}
      </Card>
      <ResourceFormDialog config={dialogConfig} open={dialog.open} record={dialog.record} onClose={() => setDialog((d) => ({ ...d, open: false }))} />
    </>
  );
}
