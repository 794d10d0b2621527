import { type AssignmentStrategy, assignmentStrategies, assignmentStrategyLabels, resources } from '@mostrador/contract';
import AutoModeIcon from '@mui/icons-material/AutoMode';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ResourceRecord } from '../../components/crud/types';
import { displayNameOf, useRefOptions, useResourceList } from '../../components/crud/use-resource';
import { formatCount } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { agentsApi, useAssignmentSettings, useReassign, useWorkload } from './api';
import { agentKeys } from '../../lib/query-keys';

const UNASSIGNED = '__sin_asignar__';
const held = (w: { leads: number; cleanLeads: number } | undefined) => (w ? w.leads + w.cleanLeads : 0);

/** The user an agent is (decision 0025), by name; "—" when none or when the role may not list users. */
export function AgentUser({ userId }: { userId: unknown }) {
  const users = useRefOptions(['users'], typeof userId === 'string');
  if (typeof userId !== 'string') return <>—</>;
  // a role that may not list users still learns the agent has one
  return <>{users.options.find((o) => o.id === userId)?.label ?? (users.loading ? '…' : 'Usuario vinculado')}</>;
}

/**
 * What an agent holds: "12 leads · 5 chats". An inactive agent who still holds something is
 * offered for reassignment (decision 0025): the chip opens the dialog.
 */
export function AgentWorkload({ agent }: { agent: ResourceRecord }) {
  const workload = useWorkload().get(agent._id);
  const [open, setOpen] = useState(false);
  const { can } = usePermissions();
  if (!workload) return <>—</>;
  const text = `${formatCount(workload.leads)} leads · ${formatCount(workload.chats)} chats`;
  if (agent.active !== false || held(workload) === 0) return <>{text}</>;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <span>{text}</span>
      {can('organization', 'update') && (
        <>
          <Chip size="small" color="warning" icon={<SwapHoriz />} label="Inactivo: reasignar" onClick={() => setOpen(true)} />
          <ReassignDialog agent={agent} open={open} onClose={() => setOpen(false)} />
        </>
      )}
    </Box>
  );
}

/** The row action: hand over everything the agent holds. Shown when they hold something and the role may edit agents. */
export function ReassignAction({ agent }: { agent: ResourceRecord }) {
  const workload = useWorkload().get(agent._id);
  const { can } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!can('organization', 'update') || held(workload) === 0) return null;
  return (
    <>
      <Tooltip title="Reasignar lo asignado">
        <IconButton size="small" aria-label={`Reasignar lo asignado a ${displayNameOf(agent)}`} onClick={() => setOpen(true)}>
          <SwapHoriz fontSize="small" />
        </IconButton>
      </Tooltip>
      <ReassignDialog agent={agent} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** Everything an agent holds, to another active agent or back to «Sin asignar» (POST /agentes/{id}/reassign). */
function ReassignDialog({ agent, open, onClose }: { agent: ResourceRecord; open: boolean; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const workload = useWorkload().get(agent._id);
  const agents = useResourceList(resources.agentes, { sort: 'name', order: 'asc', page: 1, limit: 200 }, open);
  const choices = (agents.data?.payload ?? []).filter((a) => a._id !== agent._id && a.active !== false);
  const [target, setTarget] = useState('');
  const reassign = useReassign();
  const save = () =>
    reassign.mutate({ id: agent._id, agenteId: target === UNASSIGNED ? null : target }, { onSuccess: () => onClose() });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Reasignar lo de {displayNameOf(agent)}</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2">
          {workload
            ? `${displayNameOf(agent)} tiene ${formatCount(workload.leads)} leads, ${formatCount(workload.cleanLeads)} leads limpios y ${formatCount(workload.chats)} chats.`
            : 'Cargando lo asignado…'}{' '}
          Pásalos a otro agente activo o déjalos sin asignar.
        </Typography>
        <TextField select label="Pasar a" value={target} onChange={(e) => setTarget(e.target.value)} required slotProps={{ select: { MenuProps: { disablePortal: false } } }}>
          <MenuItem value={UNASSIGNED}>Sin asignar</MenuItem>
          {choices.map((a) => (
            <MenuItem key={a._id} value={a._id}>
              {displayNameOf(a)}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="caption" color="text.secondary">
          Un lead que pasa a otro agente sale de «Sin asignar»; uno que queda sin agente vuelve a «Sin asignar», salvo una compra realizada o fallida.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={save} disabled={!target || reassign.isPending}>
          Reasignar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The search row's button to the company's automatic assignment (decision 0025: off by
 * default): on or off, and among whom new chats are dealt round-robin. For roles that may change
 * the settings.
 */
export function AutoAssignButton() {
  const { can } = usePermissions();
  const [open, setOpen] = useState(false);
  const settings = useAssignmentSettings(can('settings', 'read'));
  if (!can('settings', 'update')) return null;
  const on = settings.data?.enabled;
  return (
    <>
      <Button variant="outlined" startIcon={<AutoModeIcon />} onClick={() => setOpen(true)} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
        {on ? 'Asignación automática: activada' : 'Asignación automática'}
      </Button>
      {open && settings.data && <AutoAssignDialog initial={settings.data} onClose={() => setOpen(false)} />}
    </>
  );
}

function AutoAssignDialog({ initial, onClose }: { initial: { enabled: boolean; strategy: AssignmentStrategy }; onClose: () => void }) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const queryClient = useQueryClient();
  const { companyId } = useSession();
  const [enabled, setEnabled] = useState(initial.enabled);
  const [strategy, setStrategy] = useState<AssignmentStrategy>(initial.strategy);
  const available = useResourceList(resources.agentes, { sort: 'name', order: 'asc', page: 1, limit: 200 }).data?.payload.filter((a) => a.active !== false && a.available === true);
  const save = useMutation({
    mutationFn: () => agentsApi.saveSettings({ enabled, strategy }),
    onSuccess: (data) => {
      queryClient.setQueryData(agentKeys.settings(companyId), data);
      onClose();
    },
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Asignación automática</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        <FormControlLabel
          control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
          label="Asignar automáticamente los chats nuevos sin agente"
        />
        <RadioGroup value={strategy} onChange={(e) => setStrategy(e.target.value as AssignmentStrategy)} aria-label="Cómo repartir">
          {assignmentStrategies.map((s) => (
            <FormControlLabel key={s} value={s} control={<Radio />} label={assignmentStrategyLabels[s]} disabled={!enabled} />
          ))}
        </RadioGroup>
        <Alert severity={available && available.length === 0 ? 'warning' : 'info'}>
          {available && available.length === 0
            ? 'Ningún agente está disponible: los chats nuevos quedarán sin asignar hasta que alguien se marque «Disponible».'
            : `Se reparten por turnos entre los agentes activos y disponibles${available ? ` (${available.map((a) => displayNameOf(a)).join(', ')})` : ''}. Cada agente se marca «Disponible» o «Ausente» desde su menú de usuario.`}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={() => save.mutate()} disabled={save.isPending}>
          Guardar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
