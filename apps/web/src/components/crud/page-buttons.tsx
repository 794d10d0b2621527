import { MAX_PAGINATION_BUTTONS } from '@mostrador/contract';
import Box from '@mui/material/Box';
import PaginationItem from '@mui/material/PaginationItem';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useT } from '../../i18n';
import { pageWindow } from './pagination';

/** Page buttons shown at most on a phone, where 16 would not fit in a row. */
export const PHONE_PAGINATION_BUTTONS = 5;

export interface PageButtonsProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}

/** First, previous, up to 16 page numbers (SPEC §9), next, last. */
export function PageButtons({ page, totalPages, onChange }: PageButtonsProps) {
  const t = useT();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const pages = pageWindow(page, totalPages, phone ? PHONE_PAGINATION_BUTTONS : MAX_PAGINATION_BUTTONS);
  const last = Math.max(1, totalPages);
  const edge = (type: 'first' | 'previous' | 'next' | 'last', target: number, label: string, disabled: boolean) => (
    <li>
      <PaginationItem type={type} aria-label={label} title={label} disabled={disabled} onClick={() => onChange(target)} size="small" />
    </li>
  );
  return (
    <Box component="nav" aria-label={t('crud.pagination')}>
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, listStyle: 'none', m: 0, p: 0 }}>
        {edge('first', 1, t('crud.firstPage'), page <= 1)}
        {edge('previous', page - 1, t('crud.previousPage'), page <= 1)}
        {pages.map((n) => (
          <li key={n}>
            <PaginationItem
              type="page"
              page={n}
              size="small"
              selected={n === page}
              color="primary"
              aria-label={t('crud.page', { page: n })}
              aria-current={n === page ? 'page' : undefined}
              onClick={() => n !== page && onChange(n)}
              data-testid="page-button"
            />
          </li>
        ))}
        {edge('next', page + 1, t('crud.nextPage'), page >= last)}
        {edge('last', last, t('crud.lastPage'), page >= last)}
      </Box>
    </Box>
  );
}
