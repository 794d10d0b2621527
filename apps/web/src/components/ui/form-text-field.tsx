import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { type ReactNode, useId, useState } from 'react';
import { useT } from '../../i18n';
import type { FieldBinding } from '../../lib/use-schema-form';

/** Material's Visibility and VisibilityOff paths (24 × 24). */
const EYE =
  'M12 4.5C7 4.5 2.73 7.61 1 12c1.73 4.39 6 7.5 11 7.5s9.27-3.11 11-7.5c-1.73-4.39-6-7.5-11-7.5M12 17c-2.76 0-5-2.24-5-5s2.24-5 5-5 5 2.24 5 5-2.24 5-5 5m0-8c-1.66 0-3 1.34-3 3s1.34 3 3 3 3-1.34 3-3-1.34-3-3-3';
const EYE_OFF =
  'M12 7c2.76 0 5 2.24 5 5 0 .65-.13 1.26-.36 1.83l2.92 2.92c1.51-1.26 2.7-2.89 3.43-4.75-1.73-4.39-6-7.5-11-7.5-1.4 0-2.74.25-3.98.7l2.16 2.16C10.74 7.13 11.35 7 12 7M2 4.27l2.28 2.28.46.46C3.08 8.3 1.78 10.02 1 12c1.73 4.39 6 7.5 11 7.5 1.55 0 3.03-.3 4.38-.84l.42.42L19.73 22 21 20.73 3.27 3zM7.53 9.8l1.55 1.55c-.05.21-.08.43-.08.65 0 1.66 1.34 3 3 3 .22 0 .44-.03.65-.08l1.55 1.55c-.67.33-1.41.53-2.2.53-2.76 0-5-2.24-5-5 0-.79.2-1.53.53-2.2m4.31-.78 3.15 3.15.02-.16c0-1.66-1.34-3-3-3z';

/**
 * The show/hide password icon as plain SVG, drawn like `<Visibility fontSize="small" />`:
 * @mui/icons-material would bring SvgIcon into the first load of /login for this one icon.
 */
function EyeIcon({ off }: { off: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden
      focusable="false"
      fill="currentColor"
      style={{ width: '1em', height: '1em', fontSize: '1.25rem', display: 'inline-block', flexShrink: 0, userSelect: 'none' }}
    >
      <path d={off ? EYE_OFF : EYE} />
    </svg>
  );
}

export interface FormTextFieldProps extends FieldBinding {
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  placeholder?: string;
  helperText?: ReactNode;
  disabled?: boolean;
}

/**
 * An outlined text input bound to a form field (`{...form.field('email')}`, see
 * lib/use-schema-form.ts) that shows the schema's Spanish message under it.
 * Built from FormControl parts rather than TextField, which would bring Select and its
 * menus into the login page's first load.
 */
export function FormTextField({
  name,
  value,
  error,
  onChange,
  inputRef,
  label,
  type = 'text',
  autoComplete,
  autoFocus,
  placeholder,
  helperText,
  disabled,
}: FormTextFieldProps) {
  const t = useT();
  const id = useId();
  const [visible, setVisible] = useState(false);
  const isPassword = type === 'password';
  const help = error ?? helperText;
  const helpId = `${id}-help`;
  return (
    <FormControl fullWidth variant="outlined" error={!!error} disabled={disabled}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        name={name}
        value={value}
        onChange={onChange}
        inputRef={inputRef}
        type={isPassword && visible ? 'text' : type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        placeholder={placeholder}
        aria-describedby={help ? helpId : undefined}
        aria-invalid={error ? true : undefined}
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
                <EyeIcon off={visible} />
              </IconButton>
            </InputAdornment>
          ) : undefined
        }
      />
      {help && <FormHelperText id={helpId}>{help}</FormHelperText>}
    </FormControl>
  );
}
