import { type CompanyUser, resources, roleLabels } from '@mostrador/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { storage } from '../../lib/storage';
import { Link as RouterLink, useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { useT } from '../../i18n';
import { usePermissions } from '../../lib/permissions';
import { queryKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import { fold } from '../../lib/text';
import { useResourceList, useResourceRecord } from '../../components/crud/use-resource';
import { usersResource } from '../organization/users-screen';
import { groupsApi, MEMBER_CHOICES_LIMIT } from './api';


/** /grupos/{id}: choose which of the company's users belong to the group, then save them all at once. */
export function GroupMembersPage() {
  const t = useT();
  const { id = '' } = useParams();
  const { companyId, user } = useSession();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const canSave = permissions.can('groups', 'update');

  const group = useResourceRecord(resources.groups, id);
  const members = useQuery({ queryKey: [...queryKeys.groupMembers(id), companyId], queryFn: () => groupsApi.members(id) });
  const users = useResourceList(usersResource, { sort: 'name', order: 'asc', page: 1, limit: MEMBER_CHOICES_LIMIT });

  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [filter, setFilter] = useState('');
  // Changes not saved yet are kept when the page is left (a draft per user, company and group)
  // and offered back on return; closing the tab with changes asks first.
  const draftKey = `mostrador.group-members-draft:${user?._id ?? '-'}:${companyId ?? '-'}:${id}`;
  const saved = useMemo(() => (members.data ? new Set(members.data.payload.map((u) => u._id)) : null), [members.data]);
  // The saved members (or the draft left here before) are the starting selection.
  useEffect(() => {
    if (!saved) return;
    const draft = storage.getJSON<string[]>(draftKey);
    setSelected(Array.isArray(draft) ? new Set(draft.filter((v) => typeof v === 'string')) : new Set(saved));
  }, [saved, draftKey]);
  const dirty = !!selected && !!saved && (selected.size !== saved.size || [...selected].some((v) => !saved.has(v)));
  useEffect(() => {
    if (!selected || !saved) return;
    if (dirty) storage.setJSON(draftKey, [...selected]);
    else storage.remove(draftKey);
  }, [selected, saved, dirty, draftKey]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const discard = () => {
    storage.remove(draftKey);
    if (saved) setSelected(new Set(saved));
  };

  const save = useMutation({
    mutationFn: (userIds: string[]) => groupsApi.setMembers(id, userIds),
    onSuccess: () => {
      storage.remove(draftKey);
      return queryClient.invalidateQueries({ queryKey: queryKeys.groupMembers(id) });
    },
  });

  const visible = useMemo(() => {
    const needle = fold(filter.trim());
    const all = (users.data?.payload ?? []) as unknown as CompanyUser[];
    return needle ? all.filter((u) => fold(`${u.first_name} ${u.last_name} ${u.email}`).includes(needle)) : all;
  }, [users.data, filter]);

  const toggle = (userId: string) =>
    setSelected((prev) => {
      const next = new Set(prev ?? []);
      if (next.has(userId)) next.delete(userId);
      else next.add(userId);
      return next;
    });

  const loading = group.isLoading || members.isLoading || users.isLoading;
  const failed = group.isError || members.isError || users.isError;

  return (
    <>
      <Button component={RouterLink} to="/grupos" startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        {t('crud.back')}
      </Button>
      <PageHeader
        title={group.data ? `Miembros de ${group.data.name}` : 'Miembros del grupo'}
        subtitle="Elige qué usuarios de la compañía pertenecen a este grupo"
        actions={
          canSave ? (
            <Button
              variant="contained"
              disabled={!selected || save.isPending}
              onClick={() => selected && save.mutate([...selected])}
            >
              {t('crud.save')}
            </Button>
          ) : undefined
        }
      />
      {failed && <Alert severity="warning">{t('crud.notFound')}</Alert>}
      {dirty && canSave && (
        <Alert
          severity="info"
          data-testid="members-unsaved"
          sx={{ maxWidth: 720, mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={discard}>
              Descartar cambios
            </Button>
          }
        >
          Tienes cambios sin guardar en los miembros: se conservan si sales de esta pantalla hasta que los guardes o descartes.
        </Alert>
      )}
      {loading && <Skeleton variant="rounded" height={320} sx={{ maxWidth: 720 }} />}
      {!loading && !failed && (
        <Card sx={{ maxWidth: 720 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, p: 2, flexWrap: 'wrap' }}>
            <TextField
              size="small"
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder={t('crud.search')}
              fullWidth={false}
              sx={{ flex: '1 1 220px' }}
              slotProps={{
                htmlInput: { 'aria-label': t('crud.search') },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Typography variant="body2" color="text.secondary" data-testid="members-count">
              {`${selected?.size ?? 0} seleccionados`}
            </Typography>
          </Box>
          {visible.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
              {users.data?.payload.length ? 'Ningún usuario coincide con la búsqueda' : 'Aún no hay usuarios en esta compañía'}
            </Typography>
          ) : (
            <List aria-label="Usuarios de la compañía" sx={{ borderTop: 1, borderColor: 'divider' }}>
              {visible.map((user) => {
                const checked = selected?.has(user._id) ?? false;
                const labelId = `member-${user._id}`;
                return (
                  <ListItem key={user._id} disablePadding secondaryAction={<Chip size="small" variant="outlined" label={roleLabels[user.role] ?? user.role} />}>
                    <ListItemButton onClick={() => toggle(user._id)} disabled={!canSave} dense>
                      <ListItemIcon sx={{ minWidth: 40 }}>
                        <Checkbox edge="start" checked={checked} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-labelledby': labelId } }} />
                      </ListItemIcon>
                      <ListItemText id={labelId} primary={`${user.first_name} ${user.last_name}`} secondary={user.email} />
                    </ListItemButton>
                  </ListItem>
                );
              })}
            </List>
          )}
        </Card>
      )}
    </>
  );
}

export default GroupMembersPage;
