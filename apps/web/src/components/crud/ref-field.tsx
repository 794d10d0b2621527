import Autocomplete, { type AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { HTMLAttributes, Key, ReactNode } from 'react';
import { useT } from '../../i18n';
import { type RefOption, useRefOptions } from './use-resource';

export interface RefFieldProps {
  id: string;
  name: string;
  label: string;
  /** Resource keys whose records may be chosen. */
  keys: readonly string[];
  multiple: boolean;
  value: string | string[];
  onChange: (value: string | string[]) => void;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  placeholder?: string;
  size?: 'small' | 'medium';
}

/**
 * A choice among another resource's records (or several resources', grouped), shown by
 * name: one id, or a list of ids as chips. Ids no longer listed still show, as their id.
 * A list of ids keeps its options open after each pick, so several are picked in a row and
 * Escape then closes the options, not the dialog the field is in (with the options already
 * closed, Escape reached the dialog and threw away the picks with it).
 */
export function RefField({ id, name, label, keys, multiple, value, onChange, required, error, helperText, placeholder, size }: RefFieldProps) {
  const t = useT();
  const { options, loading } = useRefOptions(keys);
  const byId = new Map(options.map((o) => [o.id, o]));
  const optionOf = (refId: string): RefOption => byId.get(refId) ?? { id: refId, label: loading ? '…' : refId, group: '', key: '' };
  const grouped = keys.length > 1;
  const renderOption = (props: HTMLAttributes<HTMLLIElement> & { key: Key }, option: RefOption) => {
    const { key: _key, ...rest } = props;
    return (
      <li {...rest} key={option.id}>
        {option.label}
      </li>
    );
  };
  const renderInput = (params: AutocompleteRenderInputParams) => (
    <TextField {...params} name={name} label={label} required={required} error={error} helperText={helperText} placeholder={placeholder} size={size} />
  );
  const common = {
    id,
    size,
    options,
    loading,
    loadingText: t('crud.loadingOptions'),
    noOptionsText: t('crud.noOptions'),
    getOptionLabel: (option: RefOption) => option.label,
    isOptionEqualToValue: (a: RefOption, b: RefOption) => a.id === b.id,
    groupBy: grouped ? (option: RefOption) => option.group : undefined,
    renderOption,
    renderInput,
  };
  if (multiple) {
    const ids = Array.isArray(value) ? value : [];
    return (
      <Autocomplete
        {...common}
        multiple
        disableCloseOnSelect
        value={ids.map(optionOf)}
        onChange={(_, next: RefOption[]) => onChange(next.map((o) => o.id))}
        renderValue={(selected: RefOption[], getItemProps) =>
          selected.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return <Chip key={key} size="small" label={option.label} {...itemProps} />;
          })
        }
      />
    );
  }
  const single = typeof value === 'string' && value ? optionOf(value) : null;
  return <Autocomplete {...common} value={single} onChange={(_, next: RefOption | null) => onChange(next?.id ?? '')} />;
}
