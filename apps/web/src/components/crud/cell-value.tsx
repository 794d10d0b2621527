import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import { displayLocale, useT } from '../../i18n';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { moneyFor } from './field-money';
import type { FieldSpec } from './field-model';
import { optionLabel } from './field-input';
import type { FieldConfig, ResourceRecord } from './types';

export interface CellValueProps {
  /** The field's spec; none for createdAt / updatedAt. */
  spec?: FieldSpec;
  config?: FieldConfig;
  field: string;
  row: ResourceRecord;
  /** Names of referenced records by id. */
  refNames: ReadonlyMap<string, string>;
}

const EMPTY = '—';

/** An instant as a date and hour ('21 nov 2025, 14:05'); `empty` when there is none, the text itself when it is not a date. */
export function formatInstant(value: unknown, empty = EMPTY): string {
  if (typeof value !== 'string') return empty;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(displayLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

function Chips({ labels }: { labels: string[] }) {
  if (labels.length === 0) return <>{EMPTY}</>;
  const shown = labels.slice(0, 3);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      {shown.map((label, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat
        <Chip key={i} size="small" label={label} variant="outlined" />
      ))}
      {labels.length > shown.length && <Chip size="small" label={`+${labels.length - shown.length}`} />}
    </Box>
  );
}

/** A table cell's content, formatted by the field's kind. */
export function CellValue({ spec, config, field, row, refNames }: CellValueProps) {
  const t = useT();
  const money = moneyFor(config, row, useCompanyMoney());
  const value = row[field];
  const widget = config?.widget ?? spec?.widget;
  if (!spec || widget === 'datetime') return <>{formatInstant(value)}</>;
  if (widget === 'secret' || (widget === 'object' && spec.secret)) {
    return row[`${field}Set`] === true ? <Chip size="small" color="success" variant="outlined" label={t('crud.saved')} /> : EMPTY;
  }
  if (value === undefined || value === null || value === '') return <>{EMPTY}</>;
  switch (widget) {
    case 'boolean':
      return <Chip size="small" label={value ? t('crud.yes') : t('crud.no')} color={value ? 'success' : 'default'} variant={value ? 'filled' : 'outlined'} />;
    case 'enum':
      return <>{optionLabel(String(value), config)}</>;
    case 'enums':
    case 'strings':
      return <Chips labels={Array.isArray(value) ? value.map((v) => optionLabel(String(v), config)) : []} />;
    case 'ref':
      return <>{refNames.get(String(value)) ?? EMPTY}</>;
    case 'refs':
      return <Chips labels={Array.isArray(value) ? value.map((id) => refNames.get(String(id)) ?? String(id)) : []} />;
    case 'objects': {
      const count = Array.isArray(value) ? value.length : 0;
      return <>{count === 1 ? t('crud.itemsOne') : t('crud.items', { count })}</>;
    }
    case 'color':
      return (
        <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <Box
            aria-hidden
            sx={{ width: 18, height: 18, borderRadius: '50%', bgcolor: String(value), border: 1, borderColor: 'divider', flexShrink: 0 }}
          />
          <Box component="span" sx={{ fontFamily: 'monospace' }}>
            {String(value)}
          </Box>
        </Box>
      );
    case 'date':
      return <>{String(value).slice(0, 10)}</>;
    case 'number':
    case 'integer':
      if (money && typeof value === 'number') return <>{formatMoney(value, money)}</>;
      if (widget === 'integer') return <>{typeof value === 'number' ? value.toLocaleString(displayLocale()) : String(value)}</>;
      // amounts: two decimals at least (59,90), more when the value has them (0,0042)
      return <>{typeof value === 'number' ? value.toLocaleString(displayLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 4 }) : String(value)}</>;
    case 'url':
      return (
        <Link href={String(value)} target="_blank" rel="noreferrer" onClick={(event) => event.stopPropagation()} sx={{ wordBreak: 'break-all' }}>
          {String(value).replace(/^https?:\/\//, '')}
        </Link>
      );
    case 'object':
    case 'json':
      return <>{typeof value === 'object' ? JSON.stringify(value).slice(0, 80) : String(value)}</>;
    default:
      return <>{String(value)}</>;
  }
}
