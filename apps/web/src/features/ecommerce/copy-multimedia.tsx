import CloseIcon from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useEffect, useId, useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { useCopyMultimedia, useCrossover, useWatchedRuns } from './api';
import { countryName } from './sync-progress';

/**
 * «Copiar multimedia y textos» (POST /ecommerces/copy-multimedia-ref-copys, decision 0034): the
 * product's picture and description go to the products with the same SKU in the other country
 * stores the person ticks, which are then sent to those stores. Names, prices and stock stay.
 */
export function CopyMultimediaDialog({ product, open, onClose }: { product: ResourceRecord; open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const country = typeof product.country === 'string' ? product.country : undefined;
  const sku = typeof product.sku === 'string' ? product.sku : undefined;
  const crossover = useCrossover(open ? country : undefined, sku);
  const others = crossover.data?.others ?? [];
  const [chosen, setChosen] = useState<string[]>([]);
  const copy = useCopyMultimedia();
  const { reset } = copy;
  const watched = useWatchedRuns();
  const found = others.map((o) => o.country).join(',');
  useEffect(() => {
    // every store with the SKU, until the person unticks one
    setChosen(found ? found.split(',') : []);
  }, [found]);
  useEffect(() => {
    if (!open) reset();
  }, [open, reset]);
  const submit = () =>
    copy.mutate(
      { referenceId: product._id, countries: chosen },
      {
        onSuccess: ({ runs }) => {
          watched.watch(runs);
          onClose();
        },
      },
    );
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId} sx={{ pr: 6 }}>
        Copiar multimedia y textos
        <IconButton aria-label="Cerrar" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        <Typography variant="body2">
          La imagen y la descripción de «{String(product.name ?? '')}» ({country ? countryName(country) : ''}) reemplazan las del mismo SKU{' '}
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {sku}
          </Box>{' '}
          en las tiendas que elijas, y se envían a esas tiendas. El nombre, los precios y el stock de cada tienda no cambian.
        </Typography>
        {crossover.isLoading && <Skeleton variant="rounded" height={72} />}
        {crossover.isError && <Alert severity="warning">No se pudo saber en qué tiendas está este SKU.</Alert>}
        {crossover.data === undefined && crossover.isSuccess && <Alert severity="info">Este producto no se encontró para compararlo.</Alert>}
        {crossover.data && others.length === 0 && (
          <Alert severity="info" data-testid="copy-nothing">
            Ninguna otra tienda tiene el SKU {sku}: no hay a dónde copiar.
          </Alert>
        )}
        {others.length > 0 && (
          <FormGroup aria-label="Tiendas que reciben la copia">
            {others.map((o) => (
              <FormControlLabel
                key={o._id}
                control={
                  <Checkbox
                    checked={chosen.includes(o.country)}
                    onChange={(event) => setChosen((prev) => (event.target.checked ? [...prev, o.country] : prev.filter((c) => c !== o.country)))}
                  />
                }
                label={`${countryName(o.country)}: ${o.name}`}
              />
            ))}
            {(crossover.data?.missingIn ?? []).map((c) => (
              <FormControlLabel key={c} disabled control={<Checkbox checked={false} />} label={`${countryName(c)}: no tiene este SKU`} />
            ))}
          </FormGroup>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={submit} disabled={chosen.length === 0 || copy.isPending}>
          {copy.isPending ? 'Copiando…' : 'Copiar y enviar'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
