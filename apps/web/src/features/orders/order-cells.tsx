import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router';
import { formatInstant } from '../../components/crud/cell-value';
import { displayLocale } from '../../i18n';
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

/**
 * A date of the list, short and on one line: '25 nov., 5:55 p. m.' this year, '3 dic. 2024,
 * 9:10 a. m.' before; the full date on hover.
 */
export function shortInstant(value: unknown, now = new Date()): string {
  if (typeof value !== 'string') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const sameYear = date.getFullYear() === now.getFullYear();
  return date.toLocaleString(displayLocale(), {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
    hour: 'numeric',
    minute: '2-digit',
  });
}

export function InstantCell({ value }: { value: unknown }) {
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }} title={formatInstant(value)}>
      {shortInstant(value)}
    </Box>
  );
}
