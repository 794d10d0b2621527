import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type ReactNode, useId, useState } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

export interface FormTextFieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  placeholder?: string;
  helperText?: ReactNode;
  disabled?: boolean;
}

/**
 * An outlined text input bound to react-hook-form that shows the schema's Spanish message.
 * Built from FormControl parts rather than TextField, which would bring Select and its
 * menus into the login page's first load.
 */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  label,
  type = 'text',
  autoComplete,
  autoFocus,
  placeholder,
  helperText,
  disabled,
}: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  const id = useId();
  const { field, fieldState } = useController({ control, name });
  const [visible, setVisible] = useState(false);
  const isPassword = type === 'password';
  const message = fieldState.error?.message;
  const help = message ?? helperText;
  const helpId = `${id}-help`;
  return (
    <FormControl fullWidth variant="outlined" error={!!message} disabled={disabled}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name={field.name}
        value={field.value ?? ''}
        onChange={field.onChange}
        onBlur={field.onBlur}
        inputRef={field.ref}
        type={isPassword && visible ? 'text' : type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        placeholder={placeholder}
        aria-describedby={help ? helpId : undefined}
        aria-invalid={message ? true : undefined}
        endAdornment={
          isPassword ? (
            <InputAdornment position="end">
              <IconButton
                edge="end"
                size="small"
                aria-label={visible ? t('login.hidePassword') : t('login.showPassword')}
                onClick={() => setVisible((v) => !v)}
                tabIndex={-1}
              >
                {visible ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ) : undefined
        }
      />
      {help && <FormHelperText id={helpId}>{help}</FormHelperText>}
    </FormControl>
  );
}
