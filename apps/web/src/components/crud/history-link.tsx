import { auditEntityLabels } from '@mostrador/contract';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Button, { type ButtonProps } from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { usePermissions } from '../../lib/permissions';

/** `/auditoria` filtered to one record (issue 28: «an entity's history reachable from its screen»). */
export function historyHref(entity: string, entityId: string): string {
  return `/auditoria?${new URLSearchParams({ entity, entityId })}`;
}

/**
 * «Historial»: the record's entries in the audit log (decision 0072), for a caller whose role
 * may list the module `audit`. `entity` is the key the audit log stores (the resource's key);
 * nothing is shown for an entity the log does not record.
 */
export function HistoryLink({ entity, entityId, ...button }: { entity: string; entityId: string } & Omit<ButtonProps, 'href'>) {
  const { can } = usePermissions();
  if (!(entity in auditEntityLabels) || !can('audit', 'list')) return null;
  return (
    <Button component={RouterLink} to={historyHref(entity, entityId)} startIcon={<HistoryOutlined />} {...button}>
      Historial
    </Button>
  );
}
