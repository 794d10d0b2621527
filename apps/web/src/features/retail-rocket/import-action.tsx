import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf } from '../../components/crud/use-resource';
import { usePermissions } from '../../lib/permissions';
import { LeadImportDialog } from '../leads/lead-csv-actions';

/**
 * /retail-rocket/etiquetas «Importar segmento» (decision 0055): the segment's export from
 * RetailRocket, through the leads import, each person given the label of the tag's name.
 */
export function RetailRocketImportAction({ tag }: { tag: ResourceRecord }) {
  const [open, setOpen] = useState(false);
  const { can } = usePermissions();
  if (!can('leads', 'create')) return null;
  const name = displayNameOf(tag);
  return (
    <>
      <Tooltip title="Importar segmento">
        <IconButton size="small" aria-label={`Importar segmento: ${name}`} onClick={() => setOpen(true)}>
          <FileUploadOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <LeadImportDialog
        open={open}
        onClose={() => setOpen(false)}
        url={`/retail-rocket-tags/${encodeURIComponent(tag._id)}/import`}
        title={`Importar segmento · ${name}`}
        note={`Exporta el segmento desde RetailRocket como CSV. Cada persona del archivo se combina con su lead (o se crea) y recibe la etiqueta Mostrador «${name}», que se crea si no existe: así puedes escribirles por WhatsApp con una campaña o un envío masivo por esa etiqueta.`}
      />
    </>
  );
}
