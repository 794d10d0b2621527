import { leadStatusLabels, type SegmentPreviewOut } from '@mostrador/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, api } from '../../lib/api-client';
import { massKeys } from '../../lib/query-keys';
import { formatCount } from '../../lib/number-format';

/** The filters stay still this long before they are counted (typing a date does not ask on every key). */
const SETTLE_MS = 400;

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the serialised value is the dependency
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}



/**
 * A segment's live count and a sample of who is in it, under its form (decision 0039):
 * POST /marketing-segments/preview with the filters as they are being edited.
 */
export function SegmentPreview({ filters }: { filters: Record<string, unknown> }) {
  const settled = useSettled(filters, SETTLE_MS);
  const preview = useQuery({
    queryKey: massKeys.segmentPreview(JSON.stringify(settled)),
    queryFn: () => api.post<SegmentPreviewOut>('/marketing-segments/preview', { filters: settled }, { overlay: false, notify: false }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = preview.data;
  return (
    <Box component="section" aria-label="Quiénes entran en el segmento" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 2, display: 'grid', gap: 1 }}>
      {preview.isFetching && <LinearProgress aria-label="Contando leads" sx={{ mb: 0.5 }} />}
      {preview.isError ? (
        <Alert severity="warning">{preview.error instanceof ApiError ? preview.error.message : 'No se pudo contar el segmento'}</Alert>
      ) : data ? (
        <>
          <Typography variant="subtitle2" role="status">
            {data.count === 0 ? 'Ningún lead cumple estos filtros' : data.count === 1 ? '1 lead en este segmento' : `${formatCount(data.count)} leads en este segmento`}
          </Typography>
          {data.sample.length > 0 && (
            <Box component="ul" aria-label="Muestra del segmento" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
              {data.sample.map((lead) => (
                <Box component="li" key={lead._id} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', fontSize: 14, minWidth: 0 }}>
                  <Typography component="span" variant="body2" sx={{ fontWeight: 500, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {lead.name}
                  </Typography>
                  <Typography component="span" variant="body2" color="text.secondary">
                    {[lead.telefono ? `+${lead.telefono}` : lead.email, leadStatusLabels[lead.status as keyof typeof leadStatusLabels] ?? lead.status].filter(Boolean).join(' · ')}
                  </Typography>
                </Box>
              ))}
              {data.count > data.sample.length && (
                <Typography component="li" variant="caption" color="text.secondary">
                  y {formatCount(data.count - data.sample.length)} más
                </Typography>
              )}
            </Box>
          )}
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          Contando leads…
        </Typography>
      )}
    </Box>
  );
}
