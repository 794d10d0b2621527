import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PublicLayout } from '../../components/ui/public-layout';
import { useT } from '../../i18n';

export function NotFoundPage() {
  const t = useT();
  return (
    <PublicLayout title={t('notFound.title')}>
      <Typography
        aria-hidden
        sx={{ fontSize: '4rem', fontWeight: 800, color: 'primary.main', lineHeight: 1, mb: 1, opacity: 0.15 }}
      >
        404
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('notFound.body')}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained" fullWidth>
        {t('notFound.back')}
      </Button>
    </PublicLayout>
  );
}

export default NotFoundPage;
