import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router';
import type { ResourceRecord } from '../../components/crud/types';
import { ORDER_PARAM } from './order-filters';

/**
 * The order's code as a link to its detail (`?orden={id}`, the list's filters kept): a person
 * with a keyboard opens it too, and a new tab opens the same detail. On a phone, where the
 * customer's column is hidden, the customer's name goes under the code.
 */
export function OrderCodeCell({ row }: { row: ResourceRecord }) {
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  params.set(ORDER_PARAM, row._id);
  return (
    <>
      <Link
        component={RouterLink}
        to={{ search: `?${params}` }}
        underline="hover"
        sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
        // the row opens it already
        onClick={(event) => event.stopPropagation()}
      >
        {String(row.code)}
      </Link>
      <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' }, overflowWrap: 'anywhere' }}>
        {String(row.customerName ?? '')}
      </Typography>
    </>
  );
}
