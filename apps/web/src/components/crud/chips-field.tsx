import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';
import { useT } from '../../i18n';

export interface ChipsFieldProps {
  id: string;
  name: string;
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  /** Fixed choices (an enum); without them any text is a new chip. */
  options?: string[];
  getLabel?: (option: string) => string;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  placeholder?: string;
}

/**
 * A list of short texts as chips: type and press Enter to add (or pick among fixed options; their
 * list stays open to pick several, and Escape closes it rather than the dialog around, as RefField).
 */
export function ChipsField({ id, name, label, value, onChange, options, getLabel, required, error, helperText, placeholder }: ChipsFieldProps) {
  const t = useT();
  const free = !options;
  return (
    <Autocomplete
      id={id}
      multiple
      freeSolo={free}
      autoSelect={free}
      disableCloseOnSelect={!free}
      options={options ?? []}
      value={value}
      onChange={(_, next) => onChange((next as string[]).map((v) => v.trim()).filter((v, i, all) => v && all.indexOf(v) === i))}
      getOptionLabel={(option) => getLabel?.(option) ?? option}
      noOptionsText={t('crud.noOptions')}
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={getLabel?.(option) ?? option} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name={name}
          label={label}
          required={required}
          error={error}
          placeholder={placeholder}
          helperText={helperText ?? (free ? t('crud.chipsHelp') : undefined)}
        />
      )}
    />
  );
}
