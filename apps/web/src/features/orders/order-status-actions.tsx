import { type OrderStatus, orderStatusLabels, orderTransitions } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { usePermissions } from '../../lib/permissions';
import { useMoveOrder } from './api';

/** What each move's button says: the status the order goes to, as a person says it. */
export const moveLabels: Record<OrderStatus, string> = {
  created: 'Volver a creada',
  paid: 'Marcar como pagada',
  shipped: 'Marcar como enviada',
  done: 'Marcar como completada',
  cancelled: 'Cancelar orden',
};

/** Why a final order shows no buttons. */
const finalNotes: Partial<Record<OrderStatus, string>> = {
  done: 'Orden completada: ya no cambia de estado.',
  cancelled: 'Orden cancelada: sus unidades volvieron al stock.',
};

/** The moves an order in `status` allows (decision 0032), forward ones first and cancelling last. */
export function allowedMoves(status: string): OrderStatus[] {
  const next = (orderTransitions as Record<string, readonly OrderStatus[] | undefined>)[status] ?? [];
  return [...next.filter((s) => s !== 'cancelled'), ...next.filter((s) => s === 'cancelled')];
}

export interface OrderStatusActionsProps {
  order: { _id: string; code: string; status: string };
}

/**
 * The buttons that move an order along decision 0032's transitions, only those its status
 * allows, only for a role that may update the catalogue (agents read orders). The first
 * forward move is the main button; cancelling asks first, in a dialog that says what it does.
 */
export function OrderStatusActions({ order }: OrderStatusActionsProps) {
  const permissions = usePermissions();
  const confirm = useConfirm();
  const move = useMoveOrder();
  const moves = allowedMoves(order.status);
  const note = finalNotes[order.status as OrderStatus];
  if (moves.length === 0) {
    return note ? (
      <Typography variant="body2" color="text.secondary">
        {note}
      </Typography>
    ) : null;
  }
  if (!permissions.can('catalog', 'update')) return null;

  const go = async (to: OrderStatus) => {
    if (to === 'cancelled') {
      const accepted = await confirm({
        message: `La orden ${order.code} pasará a ${orderStatusLabels.cancelled.toLowerCase()} y sus unidades volverán al stock. No se puede deshacer.`,
        acceptLabel: moveLabels.cancelled,
        cancelLabel: 'Volver',
        destructive: true,
      });
      if (!accepted) return;
    }
    try {
      await move.mutateAsync({ id: order._id, status: to });
    } catch {
      // the api client already showed why
    }
  };

  return (
    <Box role="group" aria-label="Cambiar estado" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
      {moves.map((to, i) => (
        <Button
          key={to}
          variant={to === 'cancelled' ? 'text' : i === 0 ? 'contained' : 'outlined'}
          color={to === 'cancelled' ? 'error' : 'primary'}
          disabled={move.isPending}
          onClick={() => go(to)}
          // one under the other on a phone; cancelling apart, at the end, on wider screens
          sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' }, ...(to === 'cancelled' ? { ml: { sm: 'auto' } } : {}) }}
        >
          {moveLabels[to]}
        </Button>
      ))}
    </Box>
  );
}
