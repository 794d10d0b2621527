import {
  type Action,
  actionLabels,
  actions,
  actionsOf,
  type Module,
  moduleNames,
  modules,
  type Role,
  roleLabels,
  type RolesMatrix,
} from '@mostrador/contract';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../components/ui/page-header';
import { api } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { queryKeys, rolesKeys } from '../../lib/query-keys';

const rolesApi = {
  get: () => api.get<RolesMatrix>('/roles', { overlay: false }),
  save: (role: Role, permissions: Partial<Record<Module, Action[]>>) =>
    api.put<RolesMatrix>(`/roles/${role}`, { permissions }, { success: 'Registro actualizado con éxito' }),
};

type Matrix = Partial<Record<Module, Action[]>>;

/** What an action means, under its column name. */
const actionHints: Partial<Record<Action, string>> = {
  export: 'Descargar CSV',
  import: 'Subir CSV',
  all: 'Sin esto, solo los suyos y los sin asignar',
};

/**
 * /usuarios/roles (decision 0026): what each role may do, module by module, as the server checks
 * it on every call. The owner widens or narrows the supervisor and agent roles here; the
 * administrator keeps every permission. Labels come from the contract (`modules`, `actionLabels`).
 */
export function RolesPage() {
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: rolesKeys.all, queryFn: rolesApi.get });
  const [role, setRole] = useState<Role>('agent');
  const stored = query.data?.roles.find((r) => r.role === role);
  const [draft, setDraft] = useState<Matrix>({});
  useEffect(() => {
    if (stored) setDraft(stored.permissions as Matrix);
  }, [stored]);
  const editable = !!stored?.editable && can('roles', 'update');
  const save = useMutation({
    mutationFn: () => rolesApi.save(role, draft),
    onSuccess: (data) => {
      queryClient.setQueryData(rolesKeys.all, data);
      // the menus of the people of that role change on their next call
      void queryClient.invalidateQueries({ queryKey: queryKeys.permissions.all });
    },
  });
  const changed = !!stored && JSON.stringify(normalised(stored.permissions as Matrix)) !== JSON.stringify(normalised(draft));
  const toggle = (module: Module, action: Action) =>
    setDraft((prev) => {
      const held = new Set(prev[module] ?? []);
      if (held.has(action)) held.delete(action);
      else held.add(action);
      return { ...prev, [module]: actionsOf(module).filter((a) => held.has(a)) };
    });

  return (
    <>
      <PageHeader
        title="Roles y permisos"
        subtitle="Qué puede ver y hacer cada rol, módulo por módulo. El servidor lo comprueba en cada llamada."
        actions={
          editable && (
            <Button variant="contained" onClick={() => save.mutate()} disabled={!changed || save.isPending}>
              Guardar cambios
            </Button>
          )
        }
      />
      <Tabs value={role} onChange={(_, next: Role) => setRole(next)} aria-label="Rol" sx={{ mb: 2 }} variant="scrollable" allowScrollButtonsMobile>
        {(['agent', 'supervisor', 'admin'] as const).map((r) => (
          <Tab key={r} value={r} label={roleLabels[r]} icon={r === 'admin' ? <LockOutlined fontSize="small" /> : undefined} iconPosition="end" />
        ))}
      </Tabs>
      {stored && !stored.editable && (
        <Alert severity="info" sx={{ mb: 2 }}>
          El rol {roleLabels[role]} tiene siempre todos los permisos, para que nadie deje a la compañía sin administrador.
        </Alert>
      )}
      {role === 'agent' && stored?.editable && (
        <Alert severity="info" sx={{ mb: 2 }}>
          «Ver los de todos» en Leads y en Chat deja al agente ver los leads y chats de los demás agentes; sin ello ve los suyos y los sin asignar.
        </Alert>
      )}
      <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%' }}>
        <Table size="small" aria-label={`Permisos del rol ${roleLabels[role]}`} sx={{ minWidth: 1000 }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1, fontWeight: 700 }}>Módulo</TableCell>
              {actions.map((action) => (
                <TableCell key={action} align="center" sx={{ fontWeight: 700, lineHeight: 1.2, minWidth: actionHints[action] ? 112 : 72, verticalAlign: 'bottom' }}>
                  <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                    {actionLabels[action]}
                  </Box>
                  {actionHints[action] && (
                    <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block', fontWeight: 400, lineHeight: 1.3 }}>
                      {actionHints[action]}
                    </Typography>
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isLoading &&
              [0, 1, 2, 3].map((i) => (
                <TableRow key={i}>
                  <TableCell colSpan={actions.length + 1}>
                    <Skeleton />
                  </TableCell>
                </TableRow>
              ))}
            {stored &&
              moduleNames.map((module) => {
                const own = new Set(actionsOf(module));
                const held = new Set(draft[module] ?? []);
                return (
                  <TableRow key={module} hover>
                    <TableCell component="th" scope="row" sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1, whiteSpace: 'nowrap' }}>
                      {modules[module].label}
                    </TableCell>
                    {actions.map((action) => (
                      <TableCell key={action} align="center" padding="checkbox">
                        {own.has(action) ? (
                          <Checkbox
                            size="small"
                            checked={held.has(action)}
                            disabled={!editable}
                            onChange={() => toggle(module, action)}
                            slotProps={{ input: { 'aria-label': `${modules[module].label} · ${actionLabels[action]}` } }}
                          />
                        ) : (
                          <Box component="span" sx={{ color: 'text.disabled' }} aria-hidden>
                            —
                          </Box>
                        )}
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

/** A matrix in a comparable form: modules sorted, actions in the contract's order. */
function normalised(matrix: Matrix): Array<[string, Action[]]> {
  return moduleNames.map((m) => [m, actionsOf(m).filter((a) => (matrix[m] ?? []).includes(a))]);
}

export default RolesPage;
