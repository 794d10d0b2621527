import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';

export type FormTextFieldProps<T extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'defaultValue'
> & {
  control: Control<T>;
  name: FieldPath<T>;
};

/** A MUI TextField bound to react-hook-form; shows the schema's Spanish message. */
export function FormTextField<T extends FieldValues>({
  control,
  name,
  helperText,
  type,
  slotProps,
  ...props
}: FormTextFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const [visible, setVisible] = useState(false);
  const isPassword = type === 'password';
  const message = fieldState.error?.message;
  return (
    <TextField
      {...props}
      name={field.name}
      value={field.value ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      type={isPassword && visible ? 'text' : type}
      error={!!message}
      helperText={message ?? helperText}
      slotProps={{
        ...slotProps,
        input: isPassword
          ? {
              endAdornment: (
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
              ),
            }
          : slotProps?.input,
      }}
    />
  );
}
