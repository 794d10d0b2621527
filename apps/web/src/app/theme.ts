import { createTheme } from '@mui/material/styles';
import { esES } from '@mui/material/locale';

/** SPEC §9: primary #28156C; MUI in Spanish. Other colours are ours (docs/decisions). */
export const theme = createTheme(
  {
    palette: {
      primary: { main: '#28156C' },
      secondary: { main: '#00897B' },
      background: { default: '#F4F5FA', paper: '#FFFFFF' },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, system-ui, sans-serif',
      h1: { fontSize: '1.75rem', fontWeight: 700 },
      h2: { fontSize: '1.375rem', fontWeight: 600 },
      h3: { fontSize: '1.125rem', fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiCard: {
        defaultProps: { variant: 'outlined' },
        styleOverrides: { root: { borderColor: '#E4E6EF' } },
      },
      MuiTextField: { defaultProps: { fullWidth: true } },
      MuiAppBar: { defaultProps: { elevation: 0 } },
    },
  },
  esES,
);
