import type { AutomationRuleIn, AutomationRuleOut, AutomationRunOut } from '@mostrador/contract';
import Add from '@mui/icons-material/Add';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import AutoMode from '@mui/icons-material/AutoMode';
import Tune from '@mui/icons-material/Tune';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConfirm } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { usePermissions } from '../../lib/permissions';
import { automationKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { fullDateTime, relativeTime } from '../../lib/time';
import { type AutomationRuleUpdate, automationApi } from './api';
import { OrderNoticesDialog, orderNoticeTexts } from './order-notices';
import { RuleEditor } from './rule-editor';
import { RecoveryDialog, recoveryTexts } from './recovery-dialog';
import { AutomationSettingsDialog } from './settings-dialog';
import { actionLabel, automationTexts, type RuleNames, ruleSummary, ruleTriggerText, runStatusColor, runStatusLabel, triggerLabel } from './rule-text';
import { EvaluatedLine, listSx, TryOut } from './try-out';
import { useRuleNames } from './use-rule-names';

const t = automationTexts;

/** The whole rule as PUT takes it (the list's rule without its server fields). */
export function inputOf(rule: AutomationRuleOut): AutomationRuleIn {
  return {
    name: rule.name,
    enabled: rule.enabled,
    trigger: rule.trigger,
    match: rule.match,
    conditions: rule.conditions as AutomationRuleIn['conditions'],
    actions: rule.actions as AutomationRuleIn['actions'],
  };
}

function RunRow({ run, names }: { run: AutomationRunOut; names: RuleNames }) {
  return (
    <Box data-testid="automation-run" sx={{ py: 1, display: 'grid', gap: 0.75, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Chip size="small" color={runStatusColor[run.status]} label={runStatusLabel(run.status)} />
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {triggerLabel(run.eventType)}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="time" dateTime={run.createdAt} title={fullDateTime(run.createdAt)}>
          {relativeTime(run.createdAt)}
        </Typography>
        {run.depth > 1 && <Chip size="small" variant="outlined" label={t.chained(run.depth)} />}
        {run.chatId && (
          <Link component={RouterLink} to={`/chat?chatId=${encodeURIComponent(run.chatId)}`} variant="body2" sx={{ ml: { sm: 'auto' } }}>
            {t.openChat}
          </Link>
        )}
      </Box>
      {run.conditions.length > 0 && (
        <Box component="ul" sx={listSx} aria-label={t.conditionsTitle}>
          {run.conditions.map((c, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rule's conditions as they were judged, in their order
            <EvaluatedLine key={i} c={c} names={names} />
          ))}
        </Box>
      )}
      {run.actions.length > 0 && (
        <Box component="ul" sx={listSx} aria-label={t.actionsTitle}>
          {run.actions.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the actions in the order they ran
            <Box component="li" key={i} data-testid="run-action" sx={{ display: 'flex', gap: 1, alignItems: 'baseline', minWidth: 0 }}>
              <Typography component="span" sx={{ color: a.ok ? 'success.main' : 'error.main', fontWeight: 700, flexShrink: 0 }} aria-label={a.ok ? 'Hecha' : 'Falló'}>
                {a.ok ? '✓' : '✗'}
              </Typography>
              <Typography component="span" variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {actionLabel(a.type)}
                <Typography component="span" variant="body2" color={a.ok ? 'text.secondary' : 'error'}>
                  {` — ${a.detail ?? (a.ok ? t.actionOk : '')}`}
                </Typography>
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {run.error && (
        <Alert severity={run.status === 'skipped' ? 'warning' : 'error'} sx={{ overflowWrap: 'anywhere' }}>
          {run.error}
        </Alert>
      )}
    </Box>
  );
}

function Runs({ rule, names }: { rule: AutomationRuleOut; names: RuleNames }) {
  const { companyId } = useSession();
  const query = useQuery({ queryKey: automationKeys.runs(companyId, rule._id), queryFn: () => automationApi.runs(rule._id) });
  if (query.isLoading) return <Skeleton variant="rounded" height={80} />;
  if (query.isError)
    return (
      <Alert severity="error" action={<Button onClick={() => query.refetch()}>{t.retry}</Button>}>
        {t.runsError}
      </Alert>
    );
  const list = query.data?.payload ?? [];
  if (!list.length)
    return (
      <Typography variant="body2" color="text.secondary">
        {t.noRuns}
      </Typography>
    );
  return (
    <Stack divider={<Box sx={{ borderTop: 1, borderColor: 'divider' }} />}>
      {list.map((run) => (
        <RunRow key={run._id} run={run} names={names} />
      ))}
    </Stack>
  );
}

function TryOutDialog({ rule, onClose }: { rule: AutomationRuleOut | null; onClose: () => void }) {
  const fullScreen = useMediaQuery('(max-width:599.95px)');
  return (
    <Dialog open={!!rule} onClose={onClose} fullScreen={fullScreen} maxWidth="sm" fullWidth aria-labelledby="rule-try-title">
      <DialogTitle id="rule-try-title">{rule ? t.tryOut.dialogTitle(rule.name) : ''}</DialogTitle>
      <DialogContent dividers>{rule && <TryOut ruleId={rule._id} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.tryOut.close}</Button>
      </DialogActions>
    </Dialog>
  );
}

interface CardProps {
  rule: AutomationRuleOut;
  names: RuleNames;
  /** Its neighbours in the order, to move it up or down. */
  previous?: AutomationRuleOut;
  next?: AutomationRuleOut;
  onMove: (rule: AutomationRuleOut, to: 'up' | 'down') => void;
  moving: boolean;
  onEdit: (rule: AutomationRuleOut) => void;
  onTry: (rule: AutomationRuleOut) => void;
}

function RuleCard({ rule, names, previous, next, onMove, moving, onEdit, onTry }: CardProps) {
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: automationKeys.all });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => automationApi.update(rule._id, { ...inputOf(rule), enabled }, enabled ? t.enabledToast : t.disabledToast),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: () => automationApi.remove(rule._id), onSettled: refresh });
  const ask = async () => {
    if (await confirm({ title: t.removeTitle, message: t.removeMessage(rule.name), acceptLabel: t.remove, destructive: true })) remove.mutate();
  };
  const mayUpdate = can('automation', 'update');
  const enabled = toggle.isPending && toggle.variables !== undefined ? toggle.variables : rule.enabled;
  return (
    <Card variant="outlined" data-testid="automation-rule">
      <CardContent sx={{ display: 'grid', gap: 1, minWidth: 0, '&:last-child': { pb: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <AutoMode fontSize="small" color={enabled ? 'primary' : 'disabled'} aria-hidden />
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0, flex: 1 }}>
            {rule.name}
          </Typography>
          {mayUpdate && (
            <Box sx={{ display: 'flex', flexShrink: 0 }}>
              <IconButton size="small" aria-label={t.moveUp} title={t.moveUp} disabled={!previous || moving} onClick={() => onMove(rule, 'up')}>
                <ArrowUpward fontSize="small" />
              </IconButton>
              <IconButton size="small" aria-label={t.moveDown} title={t.moveDown} disabled={!next || moving} onClick={() => onMove(rule, 'down')}>
                <ArrowDownward fontSize="small" />
              </IconButton>
            </Box>
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          {mayUpdate ? (
            <Box component="label" sx={{ display: 'inline-flex', alignItems: 'center', cursor: 'pointer', ml: -1 }}>
              <Switch size="small" checked={enabled} disabled={toggle.isPending} onChange={(e) => toggle.mutate(e.target.checked)} slotProps={{ input: { 'aria-label': t.enable(rule.name) } }} />
              <Typography variant="body2">{enabled ? t.enabled : t.disabled}</Typography>
            </Box>
          ) : (
            <Chip size="small" color={enabled ? 'success' : 'default'} label={enabled ? t.enabled : t.disabled} />
          )}
          <Chip
            size="small"
            variant="outlined"
            label={`${t.when}: ${ruleTriggerText(rule.trigger)}`}
            sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
          />
        </Box>
        <Typography variant="body2" data-testid="rule-summary" sx={{ overflowWrap: 'anywhere' }}>
          {ruleSummary(rule, names)}
        </Typography>
        <Typography variant="caption" color="text.secondary" data-testid="rule-runs">
          {t.runsToday(rule.runsToday)} · {rule.lastRunAt ? <span title={fullDateTime(rule.lastRunAt)}>{t.lastRun(relativeTime(rule.lastRunAt))}</span> : t.neverRun}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
          <Button size="small" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
            {open ? t.hideRuns : t.runs}
          </Button>
          <Button size="small" onClick={() => onTry(rule)}>
            {t.test}
          </Button>
          {mayUpdate && (
            <Button size="small" onClick={() => onEdit(rule)}>
              {t.edit}
            </Button>
          )}
          {can('automation', 'delete') && (
            <Button size="small" color="error" onClick={ask} disabled={remove.isPending}>
              {t.remove}
            </Button>
          )}
        </Box>
        <Collapse in={open} unmountOnExit>
          <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}>
            <Runs rule={rule} names={names} />
          </Box>
        </Collapse>
      </CardContent>
    </Card>
  );
}

/**
 * The PUTs that move a rule one place: the two rules swap positions; when positions tie (or are
 * out of order), every rule whose place changes gets its index as its position.
 */
export function movesOf(list: AutomationRuleOut[], rule: AutomationRuleOut, to: 'up' | 'down'): Array<{ rule: AutomationRuleOut; position: number }> {
  const from = list.findIndex((r) => r._id === rule._id);
  const other = to === 'up' ? from - 1 : from + 1;
  if (from < 0 || other < 0 || other >= list.length) return [];
  const increasing = list.every((r, i) => i === 0 || r.position > list[i - 1].position);
  if (increasing) {
    return [
      { rule, position: list[other].position },
      { rule: list[other], position: rule.position },
    ];
  }
  const order = [...list];
  [order[from], order[other]] = [order[other], order[from]];
  return order.map((r, i) => ({ rule: r, position: i + 1 })).filter((m) => m.rule.position !== m.position);
}

/**
 * /automatizaciones (issue 29): the company's automation rules in the order they are judged.
 * Each card: its name, a switch, when it starts, one line saying what it does, its runs today
 * and last run, up / down, edit, delete, «Probar» (against a chosen chat) and its runs.
 */
export function AutomationPage() {
  const { companyId } = useSession();
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: automationKeys.list(companyId), queryFn: automationApi.list, refetchInterval: 30_000 });
  const { names } = useRuleNames();
  const [editing, setEditing] = useState<AutomationRuleOut | 'new' | null>(null);
  const [notices, setNotices] = useState(false);
  const [settings, setSettings] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const [trying, setTrying] = useState<AutomationRuleOut | null>(null);
  const list = query.data?.payload ?? [];
  const move = useMutation({
    mutationFn: async ({ rule, to }: { rule: AutomationRuleOut; to: 'up' | 'down' }) => {
      for (const m of movesOf(list, rule, to)) {
        const input: AutomationRuleUpdate = { ...inputOf(m.rule), position: m.position };
        await automationApi.update(m.rule._id, input);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: automationKeys.all }),
  });
  const mayCreate = can('automation', 'create');
  const mayUpdate = can('automation', 'update');
  return (
    <>
      <PageHeader
        title={t.title}
        subtitle={t.subtitle}
        actions={
          (mayCreate || mayUpdate) && (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {mayUpdate && (
                <Button variant="outlined" startIcon={<Tune />} onClick={() => setSettings(true)}>
                  {t.settings.open}
                </Button>
              )}
              <Button variant="outlined" onClick={() => setRecovery(true)}>
                {recoveryTexts.open}
              </Button>
              {mayCreate && (
                <Button variant="outlined" onClick={() => setNotices(true)}>
                  {orderNoticeTexts.open}
                </Button>
              )}
              {mayCreate && (
                <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
                  {t.create}
                </Button>
              )}
            </Box>
          )
        }
      />
      <AutomationSettingsDialog open={settings} onClose={() => setSettings(false)} />
      <RecoveryDialog open={recovery} onClose={() => setRecovery(false)} mayUpdate={mayUpdate} />
      <OrderNoticesDialog
        open={notices}
        onClose={() => setNotices(false)}
        onCreated={() => {
          setNotices(false);
          queryClient.invalidateQueries({ queryKey: automationKeys.all });
        }}
      />
      <Stack spacing={2} sx={{ maxWidth: 960, minWidth: 0 }}>
        {query.isLoading ? (
          <>
            <Skeleton variant="rounded" height={150} />
            <Skeleton variant="rounded" height={150} />
            <Skeleton variant="rounded" height={150} />
          </>
        ) : query.isError ? (
          <Alert severity="error" action={<Button onClick={() => query.refetch()}>{t.retry}</Button>}>
            {t.loadError}
          </Alert>
        ) : list.length === 0 ? (
          <Alert
            severity="info"
            action={
              mayCreate && (
                <Button color="inherit" size="small" onClick={() => setEditing('new')}>
                  {t.createFirst}
                </Button>
              )
            }
            sx={{ flexWrap: { xs: 'wrap', sm: 'nowrap' }, '& .MuiAlert-action': { ml: { xs: 0, sm: 'auto' }, pl: { xs: 0, sm: 2 } } }}
          >
            {t.empty}
          </Alert>
        ) : (
          list.map((rule, i) => (
            <RuleCard
              key={rule._id}
              rule={rule}
              names={names}
              previous={list[i - 1]}
              next={list[i + 1]}
              onMove={(r, to) => move.mutate({ rule: r, to })}
              moving={move.isPending}
              onEdit={setEditing}
              onTry={setTrying}
            />
          ))
        )}
      </Stack>
      <RuleEditor
        open={editing !== null}
        rule={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          queryClient.invalidateQueries({ queryKey: automationKeys.all });
        }}
      />
      <TryOutDialog rule={trying} onClose={() => setTrying(null)} />
    </>
  );
}

export default AutomationPage;
