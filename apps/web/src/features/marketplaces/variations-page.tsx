import { marketplaceSyncStatusLabels } from '@mostrador/contract';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Send from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import type { ResourceRecord } from '../../components/crud/types';
import { showErrors, showSuccess } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';
import { screen } from './marketplace-variations-screen';
import { useMarketplaceRealtime, usePatchVariation, usePushVariation } from './api';

/** A number as a person types it here: `59.90` or `59,90`. */
const numberOf = (text: string) => Number(text.trim().replace(',', '.'));

/** The price and stock of one SKU, saved here (pending until sent). */
function EditDialog({ row, onClose }: { row: ResourceRecord; onClose: () => void }) {
  const [price, setPrice] = useState(String(row.price ?? ''));
  const [stock, setStock] = useState(String(row.stock ?? ''));
  const patch = usePatchVariation();
  const priceError = price.trim() !== '' && !(numberOf(price) > 0) ? 'El precio debe ser un número mayor que cero' : '';
  const stockError = stock.trim() !== '' && !/^\d+$/.test(stock.trim()) ? 'El stock debe ser un número entero de 0 o más' : '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (priceError || stockError) return;
    const body = {
      ...(price.trim() !== '' && numberOf(price) !== row.price ? { price: numberOf(price) } : {}),
      ...(stock.trim() !== '' && Number(stock) !== row.stock ? { stock: Number(stock) } : {}),
    };
    if (!Object.keys(body).length) return onClose();
    patch.mutate({ variationId: row._id, patch: body }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle>Precio y stock de {String(row.sellerSku)}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          <Typography variant="body2" color="text.secondary">
            Se guarda aquí; luego usa «Enviar» para que el marketplace lo reciba.
          </Typography>
          <TextField label="Precio" value={price} onChange={(e) => setPrice(e.target.value)} error={!!priceError} helperText={priceError || ' '} inputMode="decimal" autoFocus />
          <TextField label="Stock" value={stock} onChange={(e) => setStock(e.target.value)} error={!!stockError} helperText={stockError || ' '} inputMode="numeric" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="submit" variant="contained" disabled={patch.isPending}>
            Guardar
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

function VariationActions({ row }: { row: ResourceRecord }) {
  const [editing, setEditing] = useState(false);
  const push = usePushVariation();
  if (!usePermissions().can('marketplace', 'update')) return null;
  const sku = String(row.sellerSku ?? '');
  return (
    <>
      <Tooltip title="Editar precio y stock">
        <IconButton aria-label={`Editar precio y stock de ${sku}`} size="small" onClick={() => setEditing(true)}>
          <EditOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Enviar al marketplace">
        <IconButton
          aria-label={`Enviar ${sku} al marketplace`}
          size="small"
          disabled={push.isPending}
          onClick={() =>
            push.mutate(row._id, {
              onSuccess: (answer) => (answer.status === 'failed' ? showErrors([answer.msg]) : showSuccess(answer.msg)),
            })
          }
        >
          <Send fontSize="small" />
        </IconButton>
      </Tooltip>
      {editing && <EditDialog row={row} onClose={() => setEditing(false)} />}
    </>
  );
}

/**
 * /marketplaces/productos-variaciones: every SKU with its price, offer price, stock and whether the
 * marketplace has them (a pending change, or the marketplace's reason when it refused one); edit
 * the price and stock, then send. `?producto={id}` shows one product's (from /marketplaces/productos).
 */
export function MarketplaceVariationsPage() {
  const [params, setParams] = useSearchParams();
  const productId = params.get('producto') ?? undefined;
  const syncStatus = params.get('sincronizacion') ?? '';
  useMarketplaceRealtime();
  const set = (key: string, value: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      next.delete('page');
      return next;
    });
  const config = {
    ...screen,
    rowActions: (row: ResourceRecord) => <VariationActions row={row} />,
  };
  return (
    <ResourceListPage
      config={config}
      filters={{ productId, syncStatus: syncStatus || undefined }}
      filterBar={
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <TextField select size="small" label="Sincronización" value={syncStatus} onChange={(e) => set('sincronizacion', e.target.value)} sx={{ minWidth: 220 }}>
            <MenuItem value="">Todas</MenuItem>
            {Object.entries(marketplaceSyncStatusLabels).map(([value, label]) => (
              <MenuItem key={value} value={value}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          {productId && <Chip label="Variaciones de un producto" onDelete={() => set('producto', undefined)} />}
        </Box>
      }
    />
  );
}

export default MarketplaceVariationsPage;
