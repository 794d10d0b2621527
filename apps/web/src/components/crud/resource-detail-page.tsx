import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import { useId } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../ui/page-header';
import { useT } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { ResourceFormFields, useResourceForm } from './resource-form';
import type { ResourceRecord, ScreenConfig } from './types';
import { displayNameOf, useResourceRecord } from './use-resource';

function DetailForm({ config, record, canSave }: { config: ScreenConfig; record: ResourceRecord; canSave: boolean }) {
  const t = useT();
  const formId = useId();
  const form = useResourceForm(config, record, () => undefined);
  return (
    <Card sx={{ maxWidth: 720 }}>
      <CardContent>
        <ResourceFormFields config={config} form={form} record={record} id={formId} />
        {canSave && (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
            <Button type="submit" form={formId} variant="contained" disabled={form.pending}>
              {t('crud.save')}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** A record's edit form on a page of its own (`/usuarios/{id}`): GET /{id}, then PUT. */
export function ResourceDetailPage({ config, backTo }: { config: ScreenConfig; backTo: string }) {
  const t = useT();
  const { id } = useParams();
  const record = useResourceRecord(config.resource, id);
  const permissions = usePermissions();
  const canSave = config.resource.operations.includes('update') && permissions.can(config.resource.module, 'update');
  const data = record.data;
  return (
    <>
      <Button component={RouterLink} to={backTo} startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        {t('crud.back')}
      </Button>
      <PageHeader title={config.editLabel} subtitle={data ? displayNameOf(data, config.displayField) : config.title} />
      {record.isLoading && <Skeleton variant="rounded" height={320} sx={{ maxWidth: 720 }} />}
      {record.isError && <Alert severity="warning">{t('crud.notFound')}</Alert>}
      {/* A fresh form after each save, from the record as saved */}
      {data && <DetailForm key={String(data.updatedAt ?? data._id)} config={config} record={data} canSave={canSave} />}
    </>
  );
}
