import { type PushResult, resources } from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ResourceFormFields, useResourceForm } from '../../components/crud/resource-form';
import type { ResourceRecord, ScreenConfig } from '../../components/crud/types';
import { useResourceRecord } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { usePermissions } from '../../lib/permissions';
import { resourceKeys } from '../../lib/query-keys';
import { screen as productsScreen } from './ecommerces-screen';
import { ecommerceApi, useWatchedRuns } from './api';
import { CopyMultimediaDialog } from './copy-multimedia';
import { CrossoverTable } from './crossover';
import { productImageSrc } from './media';
import { ProductStatusChip } from './product-list-extras';
import { countryName, SyncRunsPanel } from './sync-progress';
import { severityOf, VariationsEditor } from './variations-editor';

/** The page's form: what a person edits of a store product (its country and store id stay: they name its store). */
const pageScreen: ScreenConfig = {
  ...productsScreen,
  form: ['name', 'sku', 'status', 'price', 'regularPrice', 'stock', 'categoryIds', 'tagIds', 'sizes', 'attributes', 'imageUrl', 'description'],
};

function Section({ title, action, children, testId }: { title: string; action?: ReactNode; children: ReactNode; testId?: string }) {
  const id = useId();
  return (
    <Card component="section" aria-labelledby={id} data-testid={testId}>
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography id={id} variant="h2" component="h2" sx={{ mr: 'auto' }}>
            {title}
          </Typography>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

/** PATCH /ecommerces/v2/{id}: saves the changes and sends the product to its store; says what the store did. */
function ProductForm({ product, canSave, onResult }: { product: ResourceRecord; canSave: boolean; onResult: (result: PushResult) => void }) {
  const formId = useId();
  const queryClient = useQueryClient();
  const form = useResourceForm(pageScreen, product, () => undefined, {
    saveEdit: async (id, changes) => {
      const { product: saved, sync } = await ecommerceApi.patchProduct(id, changes);
      onResult(sync);
      await queryClient.invalidateQueries({ queryKey: resourceKeys('ecommerces').all });
      return saved;
    },
  });
  const src = productImageSrc(form.values.imageUrl ?? product.imageUrl);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Box
          sx={{
            width: 96,
            height: 96,
            flexShrink: 0,
            borderRadius: 2,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'action.hover',
            overflow: 'hidden',
            display: 'grid',
            placeItems: 'center',
          }}
        >
          {src ? (
            <Box component="img" src={src} alt={`Imagen de ${String(product.name ?? '')}`} sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
          ) : (
            <Typography variant="caption" color="text.secondary">
              Sin imagen
            </Typography>
          )}
        </Box>
        <Typography variant="body2" color="text.secondary">
          La imagen y la descripción se pueden copiar al mismo SKU de las otras tiendas con «Copiar multimedia y textos».
        </Typography>
      </Box>
      <ResourceFormFields config={pageScreen} form={form} record={product} id={formId} />
      {canSave && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" form={formId} variant="contained" disabled={form.pending}>
            {form.pending ? 'Guardando…' : 'Guardar y enviar a la tienda'}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/**
 * /ecommerce/productos/{id} (SPEC §2, issue 12): a store product's page. Its fields, saved and
 * sent to its country's store; its variations edited and sent one by one or in a batch; and the
 * same SKU in the other country stores side by side, with what differs marked.
 */
export default function ProductPage() {
  const { id } = useParams();
  const record = useResourceRecord(resources.ecommerces, id);
  const { can } = usePermissions();
  const canSave = can('ecommerce', 'update');
  const [result, setResult] = useState<PushResult | null>(null);
  const [copying, setCopying] = useState(false);
  const watched = useWatchedRuns();
  const product = record.data;
  const country = typeof product?.country === 'string' ? product.country : '';
  const sku = typeof product?.sku === 'string' ? product.sku : '';
  return (
    <>
      <Button component={RouterLink} to="/ecommerce/productos" startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        Volver a productos
      </Button>
      <PageHeader
        title={product ? String(product.name ?? '') : 'Producto de e-commerce'}
        subtitle={
          product ? (
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
              <Box component="span" sx={{ fontFamily: 'monospace' }}>
                {sku}
              </Box>
              <span>· Tienda de {countryName(country)}</span>
              {typeof product.woocommerceId === 'number' ? <span>· #{product.woocommerceId} en WooCommerce</span> : <span>· Aún no está en la tienda</span>}
              <ProductStatusChip status={product.status} />
            </Box>
          ) : undefined
        }
        actions={
          product && canSave ? (
            <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => setCopying(true)}>
              Copiar multimedia y textos
            </Button>
          ) : undefined
        }
      />
      {record.isLoading && <Skeleton variant="rounded" height={360} />}
      {record.isError && (
        <Alert severity="warning" action={<Button component={RouterLink} to="/ecommerce/productos">Ir a productos</Button>}>
          El producto no existe o fue eliminado.
        </Alert>
      )}
      {product && (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <SyncRunsPanel title="Envíos a las tiendas" filter={(run) => watched.ids.includes(run._id)} hideWhenEmpty onDismiss={(run) => watched.dismiss(run._id)} />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 7fr) minmax(0, 5fr)' }, alignItems: 'start' }}>
            <Section title="Producto">
              {result && (
                <Alert severity={severityOf(result)} onClose={() => setResult(null)} data-testid="product-sync">
                  {result.msg}
                </Alert>
              )}
              {/* a fresh form after each save, from the product as saved */}
              <ProductForm key={String(product.updatedAt ?? product._id)} product={product} canSave={canSave} onResult={setResult} />
            </Section>
            <Section title="En las tiendas de cada país" testId="crossover">
              <CrossoverTable country={country} sku={sku} productId={product._id} />
            </Section>
          </Box>
          <Section title="Variaciones" testId="variations">
            <VariationsEditor product={product} />
          </Section>
          <CopyMultimediaDialog product={product} open={copying} onClose={() => setCopying(false)} />
        </Box>
      )}
    </>
  );
}
