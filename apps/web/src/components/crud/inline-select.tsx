import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useT } from '../../i18n';
import type { ResourceDescriptor, ResourceRecord } from './types';
import { useSaveField } from './use-resource';

export interface InlineSelectProps {
  resource: ResourceDescriptor;
  row: ResourceRecord;
  field: string;
  /** The column's label: the select is named `${label}: ${record name}`. */
  label: string;
  recordName: string;
  /** Choices, in order. The record's value shows even when it is not among them. */
  options: ReadonlyArray<{ value: string; label: string }>;
  /** The field may be emptied: a 'Ninguno' choice that sends null. */
  clearable?: boolean;
}

/**
 * A list cell that edits its field in place (a lead's status or agent): choosing saves at
 * once with PUT {field} and the success snackbar; a failure leaves the old value shown.
 */
export function InlineSelect({ resource, row, field, label, recordName, options, clearable }: InlineSelectProps) {
  const t = useT();
  const save = useSaveField(resource);
  const value = row[field] === undefined || row[field] === null ? '' : String(row[field]);
  const shown = value && !options.some((o) => o.value === value) ? [...options, { value, label: value }] : options;
  return (
    <TextField
      select
      size="small"
      variant="standard"
      fullWidth={false}
      value={value}
      disabled={save.isPending}
      onClick={(event) => event.stopPropagation()}
      onChange={(event) => {
        const next = event.target.value;
        if (next === value) return;
        save.mutate({ id: row._id, patch: { [field]: next === '' ? null : next } }, { onError: () => undefined });
      }}
      sx={{ minWidth: 120, maxWidth: 220 }}
      slotProps={{
        select: {
          displayEmpty: true,
          renderValue: (selected: unknown) => (selected ? (shown.find((o) => o.value === selected)?.label ?? String(selected)) : '—'),
          'aria-label': `${label}: ${recordName}`,
        } as object,
      }}
    >
      {clearable ? (
        <MenuItem value="">{t('crud.none')}</MenuItem>
      ) : (
        // An empty value (no agent yet) is a known value of the select, never a choice.
        <MenuItem value="" disabled sx={{ display: 'none' }}>
          —
        </MenuItem>
      )}
      {shown.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
