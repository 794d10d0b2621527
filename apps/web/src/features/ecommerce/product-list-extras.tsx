import { ecommerceProductStatusLabels } from '@mostrador/contract';
import ContentCopy from '@mui/icons-material/ContentCopy';
import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import Sync from '@mui/icons-material/Sync';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { ResourceRecord } from '../../components/crud/types';
import { usePermissions } from '../../lib/permissions';
import { useSyncSelected, useWatchedRuns } from './api';
import { CopyMultimediaDialog } from './copy-multimedia';
import { productImageSrc } from './media';
import { SyncRunsPanel } from './sync-progress';

export const productPath = (id: string) => `/ecommerce/productos/${encodeURIComponent(id)}`;

/** A product's picture, small; a plain mark when it has none. */
export function ProductThumb({ product, size = 40 }: { product: ResourceRecord; size?: number }) {
  const src = productImageSrc(product.imageUrl);
  return (
    <Avatar variant="rounded" src={src} alt="" sx={{ width: size, height: size, bgcolor: 'action.hover', color: 'text.disabled' }}>
      <ImageNotSupportedOutlined fontSize="small" />
    </Avatar>
  );
}

/** The list's first cell: picture and name, the name a link to the product's page. */
export function ProductName({ product }: { product: ResourceRecord }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
      <ProductThumb product={product} />
      <Link component={RouterLink} to={productPath(product._id)} underline="hover" color="inherit" onClick={(event) => event.stopPropagation()} sx={{ fontWeight: 500 }}>
        {String(product.name ?? '')}
      </Link>
    </Box>
  );
}

type EcommerceProductStatus = keyof typeof ecommerceProductStatusLabels;
const statusColors: Record<EcommerceProductStatus, 'success' | 'default' | 'warning'> = { publish: 'success', draft: 'default', private: 'warning' };

export function ProductStatusChip({ status }: { status: unknown }) {
  const known = typeof status === 'string' && status in ecommerceProductStatusLabels ? (status as EcommerceProductStatus) : undefined;
  if (!known) return <>—</>;
  return <Chip size="small" variant={known === 'publish' ? 'filled' : 'outlined'} color={statusColors[known]} label={ecommerceProductStatusLabels[known]} />;
}

/**
 * What the chosen products can do: «Sincronizar seleccionados» (a push run per country store,
 * POST /ecommerces/sync-selected) and, for one product, «Copiar multimedia y textos» to the same
 * SKU in the other stores.
 */
export function ProductBulkActions({ selected, clear }: { selected: ResourceRecord[]; clear: () => void }) {
  const { can } = usePermissions();
  const sync = useSyncSelected();
  const watched = useWatchedRuns();
  const [copying, setCopying] = useState(false);
  if (!can('ecommerce', 'update')) return null;
  const one = selected.length === 1 ? selected[0] : undefined;
  return (
    <>
      <Button
        size="small"
        variant="contained"
        startIcon={<Sync fontSize="small" />}
        disabled={sync.isPending}
        onClick={() =>
          sync.mutate(
            selected.map((p) => p._id),
            {
              onSuccess: ({ runs }) => {
                watched.watch(runs);
                clear();
              },
            },
          )
        }
      >
        Sincronizar seleccionados
      </Button>
      <Tooltip title={one ? '' : 'Elige un solo producto: sus imágenes y textos se copian a ese SKU en las otras tiendas'}>
        <span>
          <Button size="small" startIcon={<ContentCopy fontSize="small" />} disabled={!one} onClick={() => setCopying(true)}>
            Copiar multimedia y textos
          </Button>
        </span>
      </Tooltip>
      {one && <CopyMultimediaDialog product={one} open={copying} onClose={() => setCopying(false)} />}
    </>
  );
}

/** The runs started from the products screen, live, until dismissed. */
export function ProductSyncPanel() {
  const watched = useWatchedRuns();
  return (
    <SyncRunsPanel
      title="Envíos a las tiendas"
      filter={(run) => watched.ids.includes(run._id)}
      hideWhenEmpty
      onDismiss={(run) => watched.dismiss(run._id)}
    />
  );
}
