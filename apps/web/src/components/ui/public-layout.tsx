import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { BrandMark } from './brand-mark';
import { useT } from '../../i18n';

export interface PublicLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Card width in px (forms with two columns want more). */
  width?: number;
  /** Whose page it is, instead of Mostrador's name (a company's page for its customers). */
  brand?: { name: string; tagline?: string };
}

/** A centred card on a tinted background: login, password recovery, registration, not found. */
export function PublicLayout({ title, subtitle, children, width = 440, brand }: PublicLayoutProps) {
  const t = useT();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 6,
        background: 'linear-gradient(160deg, #28156C 0%, #4B2FA8 45%, #F4F5FA 45.1%)',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3, color: '#fff' }}>
        <BrandMark size={40} inverted letter={brand ? (brand.name.trim()[0] ?? 'M').toUpperCase() : 'M'} />
        <Box sx={{ minWidth: 0 }}>
          <Typography component="div" sx={{ fontWeight: 700, fontSize: '1.5rem', lineHeight: 1.1, overflowWrap: 'anywhere' }}>
            {brand ? brand.name : t('app.name')}
          </Typography>
          <Typography component="div" variant="body2" sx={{ opacity: 0.8 }}>
            {brand ? brand.tagline : t('app.tagline')}
          </Typography>
        </Box>
      </Box>
      <Card sx={{ width: '100%', maxWidth: width, boxShadow: '0 12px 40px rgba(40, 21, 108, 0.12)' }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Typography variant="h1" component="h1" sx={{ mb: subtitle ? 0.5 : 3 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
