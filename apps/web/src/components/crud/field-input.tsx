import { type CountryCode, countries, normalisePhone } from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useId } from 'react';
import { useT } from '../../i18n';
import { currencySymbol, useCompanyMoney } from '../../lib/money';
import { moneyFor } from './field-money';
import { labelOf } from './common-labels';
import type { FieldSpec } from './field-model';
import { type FormMode, type FormValue, type FormValues, valuesOf } from './form-values';
import { ChipsField } from './chips-field';

import { RefField } from './ref-field';
import type { FieldConfig, ResourceRecord } from './types';
import type { FieldErrors } from './validation';

export interface FieldInputProps {
  spec: FieldSpec;
  config?: FieldConfig;
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** Every error of the form, by dotted path. */
  errors: FieldErrors;
  /** This field's dotted path (`terms.0.name`). */
  path: string;
  mode: FormMode;
  /** The record being edited (for `<field>Set` of secrets). */
  record?: ResourceRecord;
  /** Dialling code of the company's country, for phone numbers typed without it. */
  /** The company's country: a phone typed without its dialling code gets this one's. */
  country?: CountryCode;
}

const COUNTRY_LABELS: Record<string, string> = Object.fromEntries(countries.map((c) => [c.code, c.name]));

/** Spanish labels of an enum's values: the config's map, else countries, else the value itself. */
export function optionLabel(value: string, config?: FieldConfig): string {
  return config?.options?.[value] ?? COUNTRY_LABELS[value] ?? value;
}

/** More options than this: a select one can type into (every time zone), not a long menu. */
export const SEARCHABLE_OPTIONS = 30;

/** One form input, chosen by the field's widget (see field-model.ts). */
export function FieldInput({ spec, config, value, onChange, errors, path, mode, record, country }: FieldInputProps) {
  const t = useT();
  const id = useId();
  const company = useCompanyMoney();
  const widget = config?.refs ? (spec.widget === 'strings' || spec.widget === 'refs' ? 'refs' : 'ref') : (config?.widget ?? spec.widget);
  const label = labelOf(spec.name, config?.label);
  const error = errors[path];
  const help = error ?? config?.helperText;
  const text = typeof value === 'string' ? value : '';
  const onText = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value);
  const common = {
    id,
    name: path,
    label,
    required: spec.required,
    error: !!error,
    helperText: help,
    placeholder: config?.placeholder,
    fullWidth: true,
  } as const;

  switch (widget) {
    case 'boolean':
      return (
        <Box>
          <FormControlLabel
            control={<Switch name={path} checked={value === true} onChange={(event) => onChange(event.target.checked)} />}
            label={label}
          />
          {help && <FormHelperText error={!!error}>{help}</FormHelperText>}
        </Box>
      );
    case 'enum': {
      const options = spec.options ?? Object.keys(config?.options ?? {});
      if (options.length > SEARCHABLE_OPTIONS) {
        return (
          <Autocomplete
            id={id}
            options={options}
            value={text || null}
            onChange={(_, option) => onChange(option ?? '')}
            getOptionLabel={(option) => optionLabel(option, config)}
            noOptionsText={t('crud.noOptions')}
            disableClearable={spec.required}
            autoHighlight
            renderInput={(params) => (
              <TextField
                {...params}
                name={path}
                label={label}
                required={spec.required}
                error={!!error}
                helperText={help}
                placeholder={config?.placeholder}
              />
            )}
          />
        );
      }
      return (
        <TextField {...common} select value={text} onChange={onText}>
          {!spec.required && (
            <MenuItem value="">
              <em>{t('crud.none')}</em>
            </MenuItem>
          )}
          {options.map((option) => (
            <MenuItem key={option} value={option}>
              {optionLabel(option, config)}
            </MenuItem>
          ))}
        </TextField>
      );
    }
    case 'enums':
      return (
        <ChipsField
          {...common}
          value={Array.isArray(value) ? (value as string[]) : []}
          onChange={onChange}
          options={spec.options ?? []}
          getLabel={(option) => optionLabel(option, config)}
        />
      );
    case 'strings':
      return <ChipsField {...common} value={Array.isArray(value) ? (value as string[]) : []} onChange={onChange} />;
    case 'ref':
    case 'refs':
      return (
        <RefField
          {...common}
          keys={config?.refs ?? spec.refs ?? []}
          multiple={widget === 'refs'}
          value={value as string | string[]}
          onChange={onChange}
        />
      );
    case 'objects':
      return (
        <ObjectRowsField
          label={label}
          specs={spec.fields ?? []}
          config={config}
          value={Array.isArray(value) ? (value as FormValues[]) : []}
          onChange={onChange}
          errors={errors}
          path={path}
          error={error}
          country={country}
        />
      );
    case 'object': {
      const inner = (value as FormValues) ?? {};
      const saved = spec.secret && record?.[`${spec.name}Set`] === true;
      return (
        <Box component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 2, px: 2, pt: 1, pb: 2, m: 0, minWidth: 0 }}>
          <Typography component="legend" variant="body2" sx={{ px: 0.5, color: 'text.secondary', fontWeight: 600 }}>
            {label}
            {saved && <Chip component="span" size="small" color="success" variant="outlined" label={t('crud.saved')} sx={{ ml: 1 }} />}
          </Typography>
          {saved && <FormHelperText sx={{ mt: 0, mb: 1.5 }}>{t('crud.secretGroupKept')}</FormHelperText>}
          {error && <FormHelperText error>{error}</FormHelperText>}
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {(spec.fields ?? []).map((innerSpec) => {
              const innerConfig = config?.fields?.[innerSpec.name];
              const masked = spec.secret && (innerSpec.widget === 'text' || innerSpec.widget === 'textarea');
              return (
                <Box key={innerSpec.name} data-field={`${path}.${innerSpec.name}`} sx={{ minWidth: 0 }}>
                  <FieldInput
                    spec={masked ? { ...innerSpec, widget: 'secret' } : innerSpec}
                    config={innerConfig}
                    value={inner[innerSpec.name] ?? ''}
                    onChange={(next) => onChange({ ...inner, [innerSpec.name]: next })}
                    errors={errors}
                    path={`${path}.${innerSpec.name}`}
                    mode={mode}
                    country={country}
                  />
                </Box>
              );
            })}
          </Box>
        </Box>
      );
    }
    case 'secret': {
      const saved = record?.[`${spec.name}Set`] === true;
      return (
        <TextField
          {...common}
          required={spec.required && !(mode === 'edit' && saved)}
          type="password"
          autoComplete="new-password"
          value={text}
          onChange={onText}
          helperText={error ?? (saved ? t('crud.secretKept') : config?.helperText)}
        />
      );
    }
    case 'color': {
      const valid = /^#[0-9a-fA-F]{6}$/.test(text);
      return (
        <TextField
          {...common}
          value={text}
          onChange={onText}
          slotProps={{
            htmlInput: { maxLength: 7, spellCheck: false },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Box
                    component="input"
                    type="color"
                    aria-label={`${label}: selector`}
                    value={valid ? text.toLowerCase() : '#000000'}
                    onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value.toUpperCase())}
                    sx={{ width: 28, height: 28, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
                  />
                </InputAdornment>
              ),
            },
          }}
        />
      );
    }
    case 'datetime':
    case 'date':
    case 'time':
      return (
        <TextField
          {...common}
          type={widget === 'date' ? 'date' : widget === 'time' ? 'time' : 'datetime-local'}
          value={text}
          onChange={onText}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      );
    case 'number':
    case 'integer': {
      const money = config?.money ? moneyFor(config, record, company) : undefined;
      return (
        <TextField
          {...common}
          value={text}
          onChange={onText}
          slotProps={{
            htmlInput: { inputMode: widget === 'integer' ? 'numeric' : 'decimal' },
            input: money ? { startAdornment: <InputAdornment position="start">{currencySymbol(money)}</InputAdornment> } : undefined,
          }}
        />
      );
    }
    case 'phone':
      return (
        <TextField
          {...common}
          type="tel"
          value={text}
          onChange={onText}
          onBlur={() => text.trim() && onChange(normalisePhone(text, country) ?? text)}
          slotProps={{ htmlInput: { inputMode: 'tel' } }}
        />
      );
    case 'textarea':
    case 'json':
      return <TextField {...common} multiline minRows={3} maxRows={12} value={text} onChange={onText} />;
    default:
      return (
        <TextField
          {...common}
          type={widget === 'email' ? 'email' : widget === 'url' ? 'url' : 'text'}
          value={text}
          onChange={onText}
          slotProps={{ htmlInput: { maxLength: spec.maxLength } }}
        />
      );
  }
}

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

/**
 * An array of small objects (an attribute's terms): one row of inputs per item, add and remove.
 * In this file, not its own: its rows are FieldInputs and FieldInput renders it, so apart they
 * would import each other.
 */
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
