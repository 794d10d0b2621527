import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import Refresh from '@mui/icons-material/Refresh';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Divider from '@mui/material/Divider';
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { currentMembership, fullName, useSession } from '../../lib/session';
import { diagnosticsApi } from './api';
import { displayLocale, useT } from '../../i18n';

type Check = 'checking' | 'ok' | 'fail';

function StatusChip({ state, testId }: { state: Check; testId: string }) {
  const t = useT();
  if (state === 'checking') return <Chip label={t('diagnostics.checking')} size="small" data-testid={testId} />;
  const ok = state === 'ok';
  return (
    <Chip
      data-testid={testId}
      size="small"
      color={ok ? 'success' : 'error'}
      icon={ok ? <CheckCircle /> : <ErrorIcon />}
      label={ok ? t('diagnostics.reachable') : t('diagnostics.unreachable')}
    />
  );
}

export function DiagnosticsPage() {
  const t = useT();
  const session = useSession();
  const health = useQuery({ queryKey: queryKeys.health.all, queryFn: diagnosticsApi.health, meta: { quiet: true } });
  const membership = currentMembership(session);
  // the server's version and database are told to admins only
  const isAdmin = membership?.role === 'admin';
  const version = useQuery({ queryKey: queryKeys.version.all, queryFn: diagnosticsApi.version, meta: { quiet: true }, enabled: isAdmin });
  const adminOnly = isAdmin ? null : t('diagnostics.adminOnly');

  // Any HTTP answer, even an error status, proves the API is reachable.
  const answered = (q: { isSuccess: boolean; error: unknown }) => q.isSuccess || q.error instanceof ApiError;
  const apiState: Check = health.isPending ? 'checking' : answered(health) ? 'ok' : 'fail';
  const dbState: Check = health.isPending ? 'checking' : health.data?.database === 'ok' ? 'ok' : 'fail';
  const dbKind = version.data?.database;
  const serverTime = version.data ? new Date(version.data.time) : null;

  const rows: Array<{ label: string; value: ReactNode; testId: string }> = [
    {
      label: t('diagnostics.appVersion'),
      value: adminOnly ?? version.data?.version ?? (version.isPending ? t('diagnostics.checking') : t('diagnostics.unknown')),
      testId: 'diag-version',
    },
    { label: t('diagnostics.api'), value: <StatusChip state={apiState} testId="diag-api" />, testId: 'diag-api-row' },
    {
      label: t('diagnostics.database'),
      value: <StatusChip state={dbState} testId="diag-database" />,
      testId: 'diag-database-row',
    },
    {
      label: t('diagnostics.databaseKind'),
      value: adminOnly ?? (dbKind ? t(`diagnostics.${dbKind}`) : version.isPending ? t('diagnostics.checking') : t('diagnostics.unknown')),
      testId: 'diag-database-kind',
    },
    {
      label: t('diagnostics.serverTime'),
      value:
        serverTime && !Number.isNaN(serverTime.getTime())
          ? serverTime.toLocaleString(displayLocale(), { dateStyle: 'medium', timeStyle: 'medium' })
          : '—',
      testId: 'diag-time',
    },
    {
      label: t('diagnostics.currentUser'),
      value: session.user ? `${fullName(session.user)} (${session.user.email})` : t('diagnostics.signedOut'),
      testId: 'diag-user',
    },
    {
      label: t('diagnostics.currentCompany'),
      value: membership?.company.name ?? t('diagnostics.none'),
      testId: 'diag-company',
    },
  ];

  return (
    <>
      <PageHeader
        title={t('diagnostics.title')}
        subtitle={t('diagnostics.subtitle')}
        actions={
          <Button
            startIcon={<Refresh />}
            variant="outlined"
            onClick={() => {
              void health.refetch();
              if (isAdmin) void version.refetch();
            }}
          >
            {t('diagnostics.refresh')}
          </Button>
        }
      />
      <Card sx={{ maxWidth: 720 }}>
        <List disablePadding aria-label={t('diagnostics.title')}>
          {rows.map((row, index) => (
            <Fragment key={row.testId}>
              {index > 0 && <Divider component="li" />}
              <ListItem
                sx={{ py: 1.5, px: 3, display: 'flex', gap: 2 }}
                secondaryAction={undefined}
                data-testid={row.testId}
              >
                <ListItemText
                  primary={row.label}
                  sx={{ flex: '0 0 45%', m: 0 }}
                  slotProps={{ primary: { color: 'text.secondary' } }}
                />
                <div style={{ flex: 1, fontWeight: 500 }}>{row.value}</div>
              </ListItem>
            </Fragment>
          ))}
        </List>
      </Card>
    </>
  );
}

export default DiagnosticsPage;
