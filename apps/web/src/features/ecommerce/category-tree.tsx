import { countries } from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import ChevronRight from '@mui/icons-material/ChevronRight';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import SearchOff from '@mui/icons-material/SearchOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import type { ListViewContext, ResourceRecord } from '../../components/crud/types';
import { formatCount } from '../../i18n';
import { type StoreCategory, useCategoryTree } from './api';

export interface CategoryNode {
  category: StoreCategory;
  children: CategoryNode[];
  /** Its parent's id is not among the store's categories: shown at the top, marked. */
  orphan: boolean;
}

export interface CategoryGroup {
  /** The store's country; undefined: categories made here, not from a store. */
  country?: string;
  roots: CategoryNode[];
  count: number;
}

const byName = (a: CategoryNode, b: CategoryNode) => a.category.name.localeCompare(b.category.name, 'es');

/**
 * The categories as trees, one per store (by country, then those not from a store): parent 0 is
 * the top; a category hangs under the one whose store id (`id`) is its parent. With a search,
 * only the matches stay, with the branches that lead to them.
 */
export function categoryTrees(categories: StoreCategory[], search = ''): CategoryGroup[] {
  const text = search.trim().toLocaleLowerCase('es');
  const groups = new Map<string, StoreCategory[]>();
  for (const c of categories) {
    const key = c.country ?? '';
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const order = (key: string) => (key === '' ? 99 : countries.findIndex((c) => c.code === key));
  const out: CategoryGroup[] = [];
  for (const key of [...groups.keys()].sort((a, b) => order(a) - order(b))) {
    const list = groups.get(key) ?? [];
    const ids = new Set(list.map((c) => c.id).filter((id): id is number => id !== undefined));
    const nodes = new Map(list.map((c) => [c._id, { category: c, children: [] as CategoryNode[], orphan: c.parent !== 0 && !ids.has(c.parent) }]));
    const byStoreId = new Map<number, CategoryNode>();
    for (const n of nodes.values()) if (n.category.id !== undefined) byStoreId.set(n.category.id, n);
    const roots: CategoryNode[] = [];
    for (const n of nodes.values()) {
      const parent = n.category.parent !== 0 ? byStoreId.get(n.category.parent) : undefined;
      // a category that names itself (or a loop) as parent is shown at the top
      if (parent && parent !== n) parent.children.push(n);
      else roots.push(n);
    }
    const seen = new Set<CategoryNode>();
    const prune = (n: CategoryNode): CategoryNode | undefined => {
      if (seen.has(n)) return undefined;
      seen.add(n);
      const children = n.children.map(prune).filter((c): c is CategoryNode => !!c).sort(byName);
      const own = !text || n.category.name.toLocaleLowerCase('es').includes(text) || n.category.slug.includes(text);
      return own || children.length ? { ...n, children } : undefined;
    };
    const kept = roots
      .map(prune)
      .filter((n): n is CategoryNode => !!n)
      .sort(byName);
    const count = (ns: CategoryNode[]): number => ns.reduce((sum, n) => sum + 1 + count(n.children), 0);
    if (kept.length) out.push({ country: key || undefined, roots: kept, count: count(kept) });
  }
  return out;
}

/** The record the generic form edits, from the tree's answer. */
const recordOf = (c: StoreCategory): ResourceRecord => ({
  _id: c._id,
  name: c.name,
  slug: c.slug,
  parent: c.parent,
  ...(c.id !== undefined ? { externalId: c.id } : {}),
  ...(c.country ? { country: c.country } : {}),
  ...(c.foreignLabelId ? { foreignLabelId: c.foreignLabelId } : {}),
});

function Node({ node, level, context, collapsed, toggle, searching }: { node: CategoryNode; level: number; context: ListViewContext; collapsed: Set<string>; toggle: (id: string) => void; searching: boolean }) {
  const { category } = node;
  const open = searching || !collapsed.has(category._id);
  const hasChildren = node.children.length > 0;
  const record = recordOf(category);
  return (
    <Box component="li" role="treeitem" aria-level={level} aria-expanded={hasChildren ? open : undefined} aria-label={category.name} sx={{ listStyle: 'none' }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          py: 0.5,
          pr: 1,
          pl: { xs: (level - 1) * 2, sm: (level - 1) * 3.5 },
          borderRadius: 1,
          '&:hover': { bgcolor: 'action.hover' },
        }}
      >
        {hasChildren ? (
          <IconButton size="small" onClick={() => toggle(category._id)} aria-label={open ? `Plegar ${category.name}` : `Desplegar ${category.name}`} disabled={searching}>
            {open ? <ExpandMore fontSize="small" /> : <ChevronRight fontSize="small" />}
          </IconButton>
        ) : (
          <Box sx={{ width: 34, flexShrink: 0 }} />
        )}
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography component="span" sx={{ fontWeight: level === 1 ? 600 : 400, mr: 1 }}>
            {category.name}
          </Typography>
          <Typography component="span" variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace', display: { xs: 'block', sm: 'inline' } }}>
            {category.slug}
            {category.id !== undefined ? ` · #${category.id}` : ''}
          </Typography>
          {node.orphan && (
            <Typography component="span" variant="caption" color="warning.main" sx={{ display: 'block' }}>
              Su categoría padre (#{category.parent}) no está en esta tienda
            </Typography>
          )}
        </Box>
        <Chip size="small" variant="outlined" label={category.products === 1 ? '1 producto' : `${formatCount(category.products)} productos`} sx={{ flexShrink: 0 }} />
        <Box sx={{ display: 'flex', flexShrink: 0 }}>
          {context.canCreate && category.id !== undefined && (
            <Tooltip title="Agregar subcategoría">
              <IconButton size="small" aria-label={`Agregar subcategoría a ${category.name}`} onClick={() => context.create({ parent: category.id, ...(category.country ? { country: category.country } : {}) })}>
                <AddIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {context.canEdit && (
            <Tooltip title="Editar">
              <IconButton size="small" aria-label={`Editar: ${category.name}`} onClick={() => context.edit(record)}>
                <EditOutlined fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          {context.canDelete && (
            <Tooltip title="Eliminar">
              <IconButton size="small" color="error" aria-label={`Eliminar: ${category.name}`} onClick={() => void context.remove(record)}>
                <DeleteOutline fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      </Box>
      {hasChildren && open && (
        <Box component="ul" role="group" sx={{ m: 0, p: 0 }}>
          {node.children.map((child) => (
            <Node key={child.category._id} node={child} level={level + 1} context={context} collapsed={collapsed} toggle={toggle} searching={searching} />
          ))}
        </Box>
      )}
    </Box>
  );
}

function Empty({ icon, children, testId }: { icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', textAlign: 'center', py: 8 }} data-testid={testId}>
      {icon}
      <Typography>{children}</Typography>
    </Box>
  );
}

const groupTitle = (country?: string) => (country ? `Tienda de ${countries.find((c) => c.code === country)?.name ?? country}` : 'Sin tienda');

/** /ecommerce/categorias as trees (ScreenConfig.view): GET /ecommerces/categories, every category with its product count. */
export function CategoryTreeView({ context, emptyMessage, noResultsMessage }: { context: ListViewContext; emptyMessage: string; noResultsMessage: string }) {
  const tree = useCategoryTree();
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  if (tree.isLoading) {
    return (
      <Box sx={{ p: 2, display: 'grid', gap: 1 }}>
        <Skeleton />
        <Skeleton />
        <Skeleton />
      </Box>
    );
  }
  if (tree.isError && !tree.data) {
    return (
      <Alert severity="warning" sx={{ m: 2 }} action={<Button onClick={() => tree.refetch()}>Reintentar</Button>} data-testid="load-error">
        No se pudieron cargar las categorías.
      </Alert>
    );
  }
  const all = tree.data?.payload ?? [];
  const groups = categoryTrees(all, context.search);
  if (all.length === 0) return <Empty icon={<InboxOutlined fontSize="large" />} testId="empty-state">{emptyMessage}</Empty>;
  if (groups.length === 0) return <Empty icon={<SearchOff fontSize="large" />} testId="no-results">{noResultsMessage}</Empty>;
  return (
    <Box sx={{ px: { xs: 1, sm: 2 }, pb: 2, display: 'grid', gap: 2 }}>
      {groups.map((group) => (
        <Box component="section" key={group.country ?? 'none'} aria-label={groupTitle(group.country)}>
          <Typography variant="overline" component="h2" color="text.secondary" sx={{ display: 'block', px: 1, borderBottom: 1, borderColor: 'divider', mb: 0.5 }}>
            {groupTitle(group.country)} · {group.count === 1 ? '1 categoría' : `${formatCount(group.count)} categorías`}
          </Typography>
          <Box component="ul" role="tree" aria-label={`Categorías: ${groupTitle(group.country)}`} sx={{ m: 0, p: 0 }}>
            {group.roots.map((node) => (
              <Node key={node.category._id} node={node} level={1} context={context} collapsed={collapsed} toggle={toggle} searching={!!context.search} />
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
