import { telegramChatTypeLabels } from '@mostrador/contract';
import Sync from '@mui/icons-material/Sync';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { ResourceRecord } from '../../components/crud/types';
import { showSuccess } from '../../lib/feedback';
import { usePermissions } from '../../lib/permissions';
import { useCheckGroup } from './api';

/** A group's row: asks Telegram (getChat) for its title and type now and keeps them (decision 0040). */
export function GroupActions({ row }: { row: ResourceRecord }) {
  const canEdit = usePermissions().can('messaging', 'update');
  const check = useCheckGroup();
  const name = String(row.name ?? '');
  if (!canEdit) return null;
  return (
    <Tooltip title="Comprobar en Telegram">
      <span>
        <IconButton
          size="small"
          aria-label={`Comprobar en Telegram: ${name}`}
          disabled={check.isPending}
          onClick={() =>
            check.mutate(row._id, { onSuccess: (chat) => showSuccess(`Telegram encontró «${chat.title}»`, telegramChatTypeLabels[chat.type] ?? chat.type) })
          }
        >
          <Sync fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}
