import Box from '@mui/material/Box';
import { displayLocale } from '../../i18n';
import { formatInstant } from './cell-value';

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
