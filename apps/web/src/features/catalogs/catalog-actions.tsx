import StarBorder from '@mui/icons-material/StarBorder';
import LinkIcon from '@mui/icons-material/Link';
import OpenInNew from '@mui/icons-material/OpenInNew';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resourceKeys } from '../../lib/query-keys';
import type { ResourceRecord } from '../../components/crud/types';
import { api } from '../../lib/api-client';
import { showErrors, showSuccess } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';

/** The customers' address of a catalogue (SPEC §2: /catalogo-digital/{id}). */
export const catalogueUrl = (id: string, origin = window.location.origin) => `${origin}/catalogo-digital/${encodeURIComponent(id)}`;

/**
 * A catalogue's row (decision 0031): open it as customers see it, copy the link to share it in a
 * chat or a bio, and make it the default one (POST /catalogs/{id}/default moves the mark atomically).
 */
export function CatalogActions({ row }: { row: ResourceRecord }) {
  const queryClient = useQueryClient();
  const canEdit = usePermissions().can('catalog', 'update');
  const name = String(row.name ?? '');
  const url = catalogueUrl(row._id);
  const makeDefault = useMutation({
    mutationFn: () => api.post(`/catalogs/${encodeURIComponent(row._id)}/default`, undefined, { success: `«${name}» es ahora el catálogo predeterminado` }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resourceKeys('catalogs').lists() }),
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showSuccess('Enlace copiado', url);
    } catch {
      showErrors([`No se pudo copiar. El enlace es ${url}`]);
    }
  };
  return (
    <>
      <Tooltip title="Ver como cliente">
        <IconButton component="a" href={url} target="_blank" rel="noopener" size="small" aria-label={`Ver como cliente: ${name}`}>
          <OpenInNew fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Copiar enlace">
        <IconButton size="small" aria-label={`Copiar enlace: ${name}`} onClick={() => void copy()}>
          <LinkIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {canEdit && !row.isDefault && (
        <Tooltip title="Hacer predeterminado">
          <IconButton size="small" aria-label={`Hacer predeterminado: ${name}`} disabled={makeDefault.isPending} onClick={() => makeDefault.mutate()}>
            <StarBorder fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}
