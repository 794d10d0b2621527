import {
  type TemplateLeadField,
  templateCategoryLabels,
  templateLeadFields,
  variableCount,
  type WaTemplateStatus,
  waTemplateLanguages,
  waTemplateStatuses,
  waTemplateStatusHelp,
  waTemplateStatusLabels,
  type WhatsappTemplate,
} from '@mostrador/contract';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import SyncIcon from '@mui/icons-material/Sync';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { WhatsappTemplatePreview } from '../../components/ui/whatsapp-template-preview';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { type PreviewLead, useLeadSearch, useTemplateMutations, useTemplates } from './api';
import { TemplateFormDialog } from './template-form-dialog';
import { texts } from './texts';

/** The colour of each status chip. */
export const statusColor: Record<WaTemplateStatus, 'success' | 'warning' | 'error' | 'default' | 'info'> = {
  APPROVED: 'success',
  PENDING: 'info',
  REJECTED: 'error',
  PAUSED: 'warning',
  DISABLED: 'default',
};

export function StatusChip({ status }: { status: WaTemplateStatus }) {
  return <Chip size="small" label={waTemplateStatusLabels[status]} color={statusColor[status]} variant={status === 'DISABLED' ? 'outlined' : 'filled'} data-status={status} />;
}

const languageName = (code: string) => (waTemplateLanguages as Record<string, string>)[code] ?? code;

/** The values a lead gives each lead field (the company and the person sending come from the session). */
function leadValues(lead: PreviewLead | null, company?: string, agent?: string): Partial<Record<TemplateLeadField, string>> {
  return { nombre: lead?.name, telefono: lead?.telefono, email: lead?.email, empresa: company, agente: agent };
}

/** A template's variables filled from a lead: its mapped field's value, else the template's example. */
export function previewValues(t: WhatsappTemplate, values: Partial<Record<TemplateLeadField, string>>, useLead: boolean): string[] {
  return Array.from({ length: variableCount(t.body) }, (_, i) => {
    const field = t.variableFields[i] as TemplateLeadField | '' | undefined;
    const fromLead = useLead && field ? values[field] : undefined;
    return fromLead || t.bodyExamples[i] || '';
  });
}

function TemplatePreviewPanel({ template, canDelete, onDelete }: { template: WhatsappTemplate; canDelete: boolean; onDelete: () => void }) {
  const { user, companyId } = useSession();
  const company = user?.corporation?.companies?.find((m) => m.company._id === companyId)?.company.name;
  const [text, setText] = useState('');
  const [lead, setLead] = useState<PreviewLead | null>(null);
  const leads = useLeadSearch(text);
  const values = leadValues(lead, company, user?.first_name);
  const bodyValues = previewValues(template, values, !!lead);
  const n = variableCount(template.body);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'grid', gap: 2 }} data-testid="template-panel">
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h6" component="h2" sx={{ fontFamily: 'monospace', fontSize: 16, overflowWrap: 'anywhere' }}>
            {template.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {languageName(template.language)} · {templateCategoryLabels[template.category as keyof typeof templateCategoryLabels] ?? template.category}
          </Typography>
        </Box>
        <StatusChip status={template.status} />
      </Box>
      <Alert severity={template.status === 'REJECTED' ? 'error' : template.status === 'APPROVED' ? 'success' : template.status === 'PENDING' ? 'info' : 'warning'} sx={{ py: 0 }}>
        {template.status === 'REJECTED' && template.reason ? (
          <>
            <strong>{texts.rejectedReason}:</strong> {template.reason}. {waTemplateStatusHelp.REJECTED}
          </>
        ) : (
          <>
            {waTemplateStatusHelp[template.status]}
            {template.reason && template.status !== 'APPROVED' ? ` ${template.reason}.` : ''}
          </>
        )}
      </Alert>
      {!template.sendable && <Alert severity="warning">{texts.notSendable}</Alert>}
      <Autocomplete<PreviewLead>
        options={leads.data?.payload ?? []}
        value={lead}
        onChange={(_e, value) => setLead(value)}
        onInputChange={(_e, value, reason) => {
          if (reason === 'input') setText(value);
        }}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a._id === b._id}
        filterOptions={(x) => x}
        loading={leads.isFetching}
        noOptionsText={texts.noLeads}
        renderOption={(props, o) => (
          <li {...props} key={o._id}>
            <Box>
              <Box>{o.name}</Box>
              {o.telefono && (
                <Typography variant="caption" color="text.secondary">
                  +{o.telefono}
                </Typography>
              )}
            </Box>
          </li>
        )}
        renderInput={(params) => <TextField {...params} label={texts.pickLead} helperText={texts.pickLeadHelp} size="small" />}
      />
      <WhatsappTemplatePreview template={template} bodyValues={bodyValues} headerValue={template.header?.example} label={texts.previewOf(template.name)} />
      {n > 0 && (
        <Box>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
            {texts.variablesTitle}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5, typography: 'body2' }} data-testid="variable-map">
            {Array.from({ length: n }, (_, i) => {
              const field = template.variableFields[i] as TemplateLeadField | '' | undefined;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: a variable is its number
                <li key={i}>
                  {texts.variableFrom(i + 1, field ? templateLeadFields[field] : texts.typedByAgent)}
                  {template.bodyExamples[i] ? (
                    <Box component="span" sx={{ color: 'text.secondary' }}>
                      {` (${texts.exampleValue(template.bodyExamples[i])})`}
                    </Box>
                  ) : null}
                </li>
              );
            })}
          </Box>
        </Box>
      )}
      {canDelete && (
        <Box>
          <Button color="error" size="small" startIcon={<DeleteOutlineIcon />} onClick={onDelete}>
            {texts.delete}
          </Button>
        </Box>
      )}
    </Paper>
  );
}

/**
 * /mensajes_de_plantilla (SPEC §2, issue 13, decision 0038): the WhatsApp templates of the
 * company's line with their status in Spanish (and Meta's reason for a rejection), a sync with
 * Meta, a new template submitted for review, and the preview of the chosen one filled from a
 * lead picked here.
 */
export function TemplatesPage() {
  const [status, setStatus] = useState<WaTemplateStatus | undefined>();
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selectedId, setSelectedId] = useState<string>();
  const [creating, setCreating] = useState(false);
  const { can } = usePermissions();
  const confirm = useConfirm();
  const list = useTemplates({ status, q: search || undefined, page });
  const { create, remove, sync } = useTemplateMutations();
  // another status filter starts over at page 1
  const filterBy = (next: WaTemplateStatus | undefined) => {
    setStatus(next);
    setPage(1);
  };

  useEffect(() => {
    const handle = setTimeout(() => {
      setSearch(q.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(handle);
  }, [q]);

  const data = list.data;
  const templates = data?.payload ?? [];
  // the chosen one, else the first approved (what the chat can send), else the first
  const selected = useMemo(() => templates.find((x) => x._id === selectedId) ?? templates.find((x) => x.status === 'APPROVED') ?? templates[0], [templates, selectedId]);
  const panel = useRef<HTMLDivElement>(null);
  const choose = (id: string) => {
    setSelectedId(id);
    // on a phone the preview is under the list: bring it into view
    if (typeof window !== 'undefined' && window.matchMedia?.('(max-width: 899.95px)').matches) {
      requestAnimationFrame(() => panel.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }));
    }
  };
  const blocked = data?.blocked;
  const filtering = !!status || !!search;

  const onDelete = async (t: WhatsappTemplate) => {
    if (!(await confirm({ message: texts.deleteConfirm(t.name), acceptLabel: texts.delete, destructive: true }))) return;
    await remove.mutateAsync(t._id).catch(() => {});
    setSelectedId(undefined);
  };

  return (
    <Box>
      <PageHeader
        title={texts.title}
        subtitle={texts.subtitle}
        actions={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {can('messaging', 'update') && (
              <Button variant="outlined" startIcon={<SyncIcon />} onClick={() => sync.mutate()} disabled={!!blocked || sync.isPending || !data}>
                {texts.sync}
              </Button>
            )}
            {can('messaging', 'create') && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} disabled={!!blocked || !data}>
                {texts.newTemplate}
              </Button>
            )}
          </Box>
        }
      />
      {blocked && (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          data-testid="templates-blocked"
          action={
            can('integrations', 'update') ? (
              <Button component={RouterLink} to="/whatsapp" color="inherit" size="small" variant="outlined" sx={{ whiteSpace: 'nowrap' }}>
                {texts.connect}
              </Button>
            ) : undefined
          }
        >
          {blocked}
        </Alert>
      )}
      {data?.line?.businessAccountId && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {texts.line(data.line.businessAccountId, data.line.displayPhoneNumber)}
        </Typography>
      )}
      {data?.line?.sandbox && !blocked && (
        <Alert severity="info" variant="outlined" sx={{ mb: 2, py: 0 }}>
          {texts.sandbox}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        <Box role="group" aria-label="Filtrar por estado" sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap' }}>
          <Chip label={texts.all} color={!status ? 'primary' : 'default'} variant={!status ? 'filled' : 'outlined'} onClick={() => filterBy(undefined)} aria-pressed={!status} />
          {waTemplateStatuses.map((s) => (
            <Chip
              key={s}
              label={waTemplateStatusLabels[s]}
              color={status === s ? 'primary' : 'default'}
              variant={status === s ? 'filled' : 'outlined'}
              onClick={() => filterBy(s)}
              aria-pressed={status === s}
            />
          ))}
        </Box>
        <TextField size="small" value={q} onChange={(e) => setQ(e.target.value)} placeholder={texts.search} slotProps={{ htmlInput: { 'aria-label': texts.search } }} sx={{ ml: { md: 'auto' }, width: { xs: '100%', md: 280 } }} />
      </Box>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(0,1fr) 400px' }, gap: 2, alignItems: 'start' }}>
        <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
          {data && templates.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="templates-empty">
              {blocked ? '' : filtering ? texts.noResults : texts.empty}
            </Typography>
          ) : (
            <List disablePadding aria-label={texts.title}>
              {templates.map((t) => (
                <ListItemButton
                  key={t._id}
                  selected={t._id === selected?._id}
                  onClick={() => choose(t._id)}
                  divider
                  data-testid="template-row"
                  sx={{ display: 'block', py: 1.25 }}
                >
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                    <Box component="span" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere', flex: 1, minWidth: 0 }}>
                      {t.name}
                    </Box>
                    <StatusChip status={t.status} />
                  </Box>
                  <Typography variant="caption" color="text.secondary" component="div">
                    {languageName(t.language)} · {templateCategoryLabels[t.category as keyof typeof templateCategoryLabels] ?? t.category}
                  </Typography>
                  <Typography variant="body2" sx={{ mt: 0.25, display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                    {t.body}
                  </Typography>
                  {t.status === 'REJECTED' && t.reason && (
                    <Typography variant="caption" color="error" component="div" sx={{ mt: 0.25 }}>
                      {texts.rejectedReason}: {t.reason}
                    </Typography>
                  )}
                </ListItemButton>
              ))}
            </List>
          )}
          {data && data.totalPages > 1 && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
              <Pagination count={data.totalPages} page={page} onChange={(_e, p) => setPage(p)} size="small" />
            </Box>
          )}
        </Paper>
        <Box ref={panel} sx={{ position: { md: 'sticky' }, top: { md: 16 }, scrollMarginTop: 72 }}>
          {selected ? (
            <TemplatePreviewPanel key={selected._id} template={selected} canDelete={can('messaging', 'delete')} onDelete={() => void onDelete(selected)} />
          ) : (
            data && !blocked && templates.length > 0 && <Typography color="text.secondary">{texts.select}</Typography>
          )}
        </Box>
      </Box>
      <TemplateFormDialog open={creating} onClose={() => setCreating(false)} onSubmit={(input) => create.mutateAsync(input)} />
    </Box>
  );
}

export default TemplatesPage;
