import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { screen } from './orders-screen';
import { useOrdersRealtime } from './api';
import { OrderDetailDrawer } from './order-detail-drawer';
import { OrderFilterBar } from './order-filter-bar';
import {
  emptyOrderFilters,
  ORDER_PARAM,
  type OrderFilterValues,
  orderApiFilters,
  orderFiltersFromParams,
  withOrderFilters,
} from './order-filters';

/**
 * /ordenes: the company's orders (newest activity first) with filters by status and date, an
 * order's detail in a side sheet (`?orden={id}`, so a reload or a shared link keeps it open and
 * the back button closes it) where its status moves, and live: an order placed or moved
 * anywhere shows here without a reload, a new one announced with a link to it.
 */
export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const values = orderFiltersFromParams(params);
  const openId = params.get(ORDER_PARAM) ?? undefined;
  const [arrived, setArrived] = useState<{ id: string; code: string }>();

  useOrdersRealtime(setArrived);

  // a new history entry per change: the back button undoes it
  const change = (changes: Partial<OrderFilterValues>) => setParams((prev) => withOrderFilters(prev, changes));
  const clear = () => setParams((prev) => withOrderFilters(prev, emptyOrderFilters));
  const open = (id: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.set(ORDER_PARAM, id);
      return next;
    });
  const close = () =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete(ORDER_PARAM);
      return next;
    });

  return (
    <>
      <ResourceListPage
        config={screen}
        filters={orderApiFilters(values)}
        filterBar={<OrderFilterBar values={values} onChange={change} onClear={clear} />}
        onRowClick={(row) => open(row._id)}
      />
      <OrderDetailDrawer id={openId} onClose={close} />
      <Snackbar
        open={!!arrived}
        onClose={(_event, reason) => reason !== 'clickaway' && setArrived(undefined)}
        autoHideDuration={8000}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        message={arrived ? `Nueva orden ${arrived.code}` : ''}
        action={
          arrived && (
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                open(arrived.id);
                setArrived(undefined);
              }}
            >
              Ver
            </Button>
          )
        }
      />
    </>
  );
}

export default OrdersPage;
