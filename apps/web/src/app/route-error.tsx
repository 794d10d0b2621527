import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../components/ui/public-layout';

/** Shown when a screen fails to load or render (for example a chunk that did not load). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <PublicLayout title={t('routeError.title')}>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('routeError.body')}
      </Typography>
      <Button variant="contained" fullWidth onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </Button>
    </PublicLayout>
  );
}
