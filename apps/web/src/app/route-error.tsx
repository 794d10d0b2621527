import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Component, type ReactNode } from 'react';
import { PublicLayout } from '../components/ui/public-layout';
import { useT } from '../i18n';

/** Shown when a screen fails to load or render (for example a chunk that did not load). */
export function RouteError() {
  const t = useT();
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

interface RouteErrorBoundaryProps {
  children: ReactNode;
  /** A new value (the path) clears the error, so navigating away recovers. */
  resetKey: string;
}

export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  componentDidUpdate(prev: RouteErrorBoundaryProps) {
    if (this.state.failed && prev.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
