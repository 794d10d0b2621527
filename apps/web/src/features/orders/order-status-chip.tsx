import { type OrderStatus, orderStatusLabels } from '@mostrador/contract';
import Chip from '@mui/material/Chip';

const colors: Record<OrderStatus, 'default' | 'info' | 'warning' | 'success' | 'error' | 'primary'> = {
  created: 'warning',
  paid: 'info',
  shipped: 'primary',
  done: 'success',
  cancelled: 'default',
};

/** An order's status with its Spanish label (SPEC §4: Creada, Completada…). */
export function OrderStatusChip({ status }: { status: string }) {
  const known = status in orderStatusLabels ? (status as OrderStatus) : undefined;
  return <Chip size="small" color={known ? colors[known] : 'default'} variant={known === 'cancelled' ? 'outlined' : 'filled'} label={known ? orderStatusLabels[known] : status} />;
}
