import type { CountryCode } from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useT } from '../../i18n';
import type { FieldSpec } from './field-model';
import { FieldInput } from './field-input';
import { type FormValues, valuesOf } from './form-values';
import type { FieldConfig } from './types';
import type { FieldErrors } from './validation';

export interface ObjectRowsFieldProps {
  label: string;
  /** The fields of one item. */
  specs: FieldSpec[];
  config?: FieldConfig;
  value: FormValues[];
  onChange: (value: FormValues[]) => void;
  errors: FieldErrors;
  path: string;
  error?: string;
  country?: CountryCode;
}

/** An array of small objects (an attribute's terms): one row of inputs per item, add and remove. */
export function ObjectRowsField({ label, specs, config, value, onChange, errors, path, error, country }: ObjectRowsFieldProps) {
  const t = useT();
  const columns = specs.length > 2 ? { xs: '1fr', sm: '1fr 1fr' } : { xs: '1fr', sm: `repeat(${specs.length}, 1fr)` };
  return (
    <Box component="fieldset" sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 2, px: 2, pt: 1, pb: 1.5, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="body2" sx={{ px: 0.5, color: 'text.secondary', fontWeight: 600 }}>
        {label}
      </Typography>
      {error && <FormHelperText error>{error}</FormHelperText>}
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {value.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity before they are saved
          <Box key={index} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }} data-testid={`${path}-row`}>
            <Box sx={{ flex: 1, display: 'grid', gap: 1.5, gridTemplateColumns: columns, minWidth: 0 }}>
              {specs.map((spec) => (
                <Box key={spec.name} data-field={`${path}.${index}.${spec.name}`} sx={{ minWidth: 0 }}>
                  <FieldInput
                    spec={spec}
                    config={config?.fields?.[spec.name]}
                    value={row[spec.name] ?? ''}
                    onChange={(next) => onChange(value.map((r, i) => (i === index ? { ...r, [spec.name]: next } : r)))}
                    errors={errors}
                    path={`${path}.${index}.${spec.name}`}
                    mode="create"
                    country={country}
                  />
                </Box>
              ))}
            </Box>
            <IconButton
              aria-label={`${t('crud.removeRow')} ${index + 1}`}
              onClick={() => onChange(value.filter((_, i) => i !== index))}
              sx={{ mt: 1 }}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Box>
        ))}
      </Box>
      <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...value, valuesOf(specs, undefined)])} sx={{ mt: 1 }}>
        {t('crud.addRow')}
      </Button>
    </Box>
  );
}
