import {
  BUSINESS_HOURS_AWAY_MAX,
  BUSINESS_HOURS_MAX_INTERVALS,
  type BusinessHoursOut,
  type TeamHoursOut,
  businessHoursIn,
  type HoursWeekday,
  hoursWeekdayLabels,
  hoursWeekdays,
  type OpenInterval,
  timezoneLabels,
  timezones,
} from '@mostrador/contract';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useRefOptions } from '../../components/crud/use-resource';
import { PageHeader } from '../../components/ui/page-header';
import { ApiError } from '../../lib/api-client';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { businessHoursApi, businessHoursKey, teamHoursKey } from './api';

const cardTitle = { title: { variant: 'h3', component: 'h2' } } as const;

interface Draft {
  zone: string;
  schedule: Record<HoursWeekday, OpenInterval[]>;
  holidays: Array<{ date: string; name: string }>;
  awayEnabled: boolean;
  awayText: string;
}
type Errors = Record<string, string>;

const draftOf = (h: BusinessHoursOut): Draft => ({
  zone: h.zone,
  schedule: Object.fromEntries(hoursWeekdays.map((d) => [d, h.schedule[d] ?? []])) as Draft['schedule'],
  holidays: h.holidays,
  awayEnabled: h.awayEnabled,
  awayText: h.awayText,
});

/** The errors of a draft, by path (schedule.mon.0.end), as the server would answer them. */
function errorsOf(draft: Draft): Errors {
  const r = businessHoursIn.safeParse(draft);
  if (r.success) return {};
  const out: Errors = {};
  for (const issue of r.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}

function DayRow({ day, intervals, errors, onChange }: { day: HoursWeekday; intervals: OpenInterval[]; errors: Errors; onChange: (next: OpenInterval[]) => void }) {
  const label = hoursWeekdayLabels[day];
  const last = intervals.at(-1);
  const add = () => onChange([...intervals, last ? { start: last.end < '23:00' ? last.end : '23:00', end: '24:00' } : { start: '09:00', end: '18:00' }]);
  return (
    <Box data-testid={`day-${day}`} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '120px 1fr' }, gap: 1, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Typography sx={{ pt: { sm: 1 }, fontWeight: 600 }}>
        {label}
      </Typography>
      <Stack spacing={1}>
        {!intervals.length && <Typography color="text.secondary">Cerrado</Typography>}
        {intervals.map((interval, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: intervals have no id; their place is their identity
          <Stack key={i} direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              size="small"
              label="Abre"
              value={interval.start}
              placeholder="HH:MM"
              onChange={(e) => onChange(intervals.map((x, j) => (j === i ? { ...x, start: e.target.value } : x)))}
              error={!!errors[`schedule.${day}.${i}.start`]}
              helperText={errors[`schedule.${day}.${i}.start`]}
              slotProps={{ htmlInput: { 'aria-label': `${label}: abre (${i + 1})`, inputMode: 'numeric', maxLength: 5 }, inputLabel: { shrink: true } }}
              sx={{ flex: 1, minWidth: 0 }}
            />
            <TextField
              size="small"
              label="Cierra"
              value={interval.end}
              placeholder="HH:MM"
              onChange={(e) => onChange(intervals.map((x, j) => (j === i ? { ...x, end: e.target.value } : x)))}
              error={!!errors[`schedule.${day}.${i}.end`]}
              helperText={errors[`schedule.${day}.${i}.end`]}
              slotProps={{ htmlInput: { 'aria-label': `${label}: cierra (${i + 1})`, inputMode: 'numeric', maxLength: 5 }, inputLabel: { shrink: true } }}
              sx={{ flex: 1, minWidth: 0 }}
            />
            <IconButton aria-label={`Quitar el horario ${i + 1} del ${label.toLowerCase()}`} onClick={() => onChange(intervals.filter((_, j) => j !== i))}>
              <DeleteOutline />
            </IconButton>
          </Stack>
        ))}
        {errors[`schedule.${day}`] && <Typography color="error" variant="body2">{errors[`schedule.${day}`]}</Typography>}
        <Box>
          <Button size="small" startIcon={<Add />} onClick={add} disabled={intervals.length >= BUSINESS_HOURS_MAX_INTERVALS} aria-label={`Agregar un horario al ${label.toLowerCase()}`}>
            Agregar horario
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** The team whose hours the form edits (none: the company's). */
interface TeamScope {
  id: string;
  name: string;
}

function HoursForm({ hours, team }: { hours: BusinessHoursOut | TeamHoursOut; team?: TeamScope }) {
  const { companyId } = useSession();
  const own = team ? (hours as TeamHoursOut).own : true;
  const queryClient = useQueryClient();
  const canEdit = usePermissions().can('settings', 'update');
  const [draft, setDraft] = useState<Draft>(() => draftOf(hours));
  const [errors, setErrors] = useState<Errors>({});
  const [holiday, setHoliday] = useState({ date: '', name: '' });
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = useMutation({
    mutationFn: (): Promise<BusinessHoursOut | TeamHoursOut> => (team ? businessHoursApi.saveTeam(team.id, draft) : businessHoursApi.save(draft)),
    onSuccess: (saved) => {
      setErrors({});
      if (team) return queryClient.setQueryData(teamHoursKey(companyId, team.id), saved);
      queryClient.setQueryData(businessHoursKey(companyId), saved);
      // the teams without hours of their own show the company's: read again when chosen
      queryClient.removeQueries({ queryKey: [...businessHoursKey(companyId), 'team'] });
    },
    onError: (error) => {
      const details = error instanceof ApiError ? ((error.body as { errors?: { details?: Array<{ path: string; msg: string }> } } | null)?.errors?.details ?? []) : [];
      setErrors(details.length ? Object.fromEntries(details.map((d) => [d.path.replace(/^body\./, ''), d.msg])) : { form: 'No se pudo guardar el horario. Inténtalo de nuevo.' });
    },
  });
  const useCompany = useMutation({
    mutationFn: () => businessHoursApi.removeTeam((team as TeamScope).id),
    onSuccess: (back) => {
      setErrors({});
      queryClient.setQueryData(teamHoursKey(companyId, (team as TeamScope).id), back);
    },
    onError: () => setErrors({ form: 'No se pudo volver al horario de la compañía. Inténtalo de nuevo.' }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = errorsOf(draft);
    setErrors(found);
    if (!Object.keys(found).length) save.mutate();
  };
  const addHoliday = () => {
    if (!holiday.date) return setErrors((e) => ({ ...e, newHoliday: 'Elige la fecha del feriado' }));
    if (draft.holidays.some((h) => h.date === holiday.date)) return setErrors((e) => ({ ...e, newHoliday: 'Ese feriado ya está en la lista' }));
    set({ holidays: [...draft.holidays, { date: holiday.date, name: holiday.name.trim() }].sort((a, b) => a.date.localeCompare(b.date)) });
    setHoliday({ date: '', name: '' });
    setErrors(({ newHoliday: _, ...rest }) => rest);
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Horario de atención">
      <Stack spacing={3}>
        {team && !own && (
          <Alert severity="info">
            El equipo «{team.name}» usa el horario de la compañía. Si lo cambias y guardas, será el horario propio del equipo: sus agentes solo reciben chats por turno dentro de él.
          </Alert>
        )}
        {team && own && (
          <Alert severity="info">
            El equipo «{team.name}» tiene su propio horario: fuera de él sus agentes no reciben chats por turno.
            {canEdit && (
              // below the text, not at its side: it fits at 375 px
              <Box sx={{ mt: 1 }}>
                <Button color="inherit" size="small" variant="outlined" onClick={() => useCompany.mutate()} disabled={useCompany.isPending}>
                  Usar el horario de la compañía
                </Button>
              </Box>
            )}
          </Alert>
        )}
        {!team && !hours.saved && <Alert severity="info">Todavía no guardaste un horario: hasta entonces la compañía cuenta como abierta siempre y no se envía el mensaje de ausencia.</Alert>}
        {errors.form && <Alert severity="error">{errors.form}</Alert>}
        <Card>
          <CardHeader
            title="Semana"
            subheader="Los días sin horario quedan cerrados"
            slotProps={cardTitle}
            action={hours.saved && own ? <Chip color={hours.openNow ? 'success' : 'default'} label={hours.openNow ? 'Abierto ahora' : 'Cerrado ahora'} /> : undefined}
          />
          <CardContent sx={{ pt: 0 }}>
            <Autocomplete
              options={timezones as readonly string[]}
              value={draft.zone}
              disableClearable
              getOptionLabel={(id) => timezoneLabels[id] ?? id}
              onChange={(_, zone) => set({ zone })}
              renderInput={(params) => <TextField {...params} label="Zona horaria" error={!!errors.zone} helperText={errors.zone ?? 'Las horas se leen en esta zona, con su horario de verano'} />}
              sx={{ maxWidth: 420, mb: 1 }}
            />
            {hoursWeekdays.map((day) => (
              <DayRow key={day} day={day} intervals={draft.schedule[day]} errors={errors} onChange={(next) => set({ schedule: { ...draft.schedule, [day]: next } })} />
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader title="Feriados" subheader="Cerrado todo el día" slotProps={cardTitle} />
          <CardContent sx={{ pt: 0 }}>
            {!draft.holidays.length && <Typography color="text.secondary">No hay feriados.</Typography>}
            <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
              {draft.holidays.map((h, i) => (
                <Stack component="li" key={h.date} direction="row" spacing={1} data-testid="holiday" sx={{ alignItems: 'center' }}>
                  <Typography sx={{ flex: 1, minWidth: 0 }} color={errors[`holidays.${i}.date`] ? 'error' : undefined}>
                    {h.date}
                    {h.name ? ` — ${h.name}` : ''}
                    {errors[`holidays.${i}.date`] ? ` (${errors[`holidays.${i}.date`]})` : ''}
                  </Typography>
                  <IconButton aria-label={`Quitar el feriado ${h.date}`} onClick={() => set({ holidays: draft.holidays.filter((x) => x.date !== h.date) })}>
                    <DeleteOutline />
                  </IconButton>
                </Stack>
              ))}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2, alignItems: { sm: 'flex-start' } }}>
              <TextField
                type="date"
                size="small"
                label="Fecha"
                value={holiday.date}
                onChange={(e) => setHoliday((x) => ({ ...x, date: e.target.value }))}
                error={!!errors.newHoliday}
                helperText={errors.newHoliday}
                slotProps={{ inputLabel: { shrink: true } }}
              />
              <TextField size="small" label="Nombre (opcional)" value={holiday.name} onChange={(e) => setHoliday((x) => ({ ...x, name: e.target.value }))} slotProps={{ htmlInput: { maxLength: 120 } }} />
              <Button startIcon={<Add />} onClick={addHoliday}>
                Agregar feriado
              </Button>
            </Stack>
            {errors.holidays && <Typography color="error" variant="body2">{errors.holidays}</Typography>}
          </CardContent>
        </Card>
        <Card>
          <CardHeader title="Mensaje de ausencia" subheader="Se envía una vez por chat cada vez que la compañía está cerrada, cuando un cliente escribe" slotProps={cardTitle} />
          <CardContent sx={{ pt: 0 }}>
            <FormControlLabel control={<Switch checked={draft.awayEnabled} onChange={(e) => set({ awayEnabled: e.target.checked })} />} label="Enviar el mensaje de ausencia" />
            <TextField
              fullWidth
              multiline
              minRows={3}
              label="Mensaje"
              value={draft.awayText}
              onChange={(e) => set({ awayText: e.target.value })}
              error={!!errors.awayText}
              helperText={errors.awayText ?? `${draft.awayText.length}/${BUSINESS_HOURS_AWAY_MAX}`}
              sx={{ mt: 1 }}
            />
          </CardContent>
        </Card>
        {canEdit ? (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              Guardar
            </Button>
          </Box>
        ) : (
          <Typography color="text.secondary">Solo quien puede cambiar la configuración puede guardar el horario.</Typography>
        )}
      </Stack>
    </Box>
  );
}

/**
 * /configuracion/horario: the company's zone, week, holidays and away message (PUT /business-hours),
 * or, chosen at the top, a sales team's own (PUT/DELETE /business-hours/teams/:id, decision 0081).
 */
export function BusinessHoursPage() {
  const { companyId } = useSession();
  const [teamId, setTeamId] = useState('');
  const { options } = useRefOptions(['equipos-de-ventas']);
  const teams = options.map((o) => ({ id: o.id, name: o.label }));
  const team = teams.find((x) => x.id === teamId);
  // a team no longer in the list: the company's (never a team's call for a team not shown)
  const query = useQuery<BusinessHoursOut | TeamHoursOut>({
    queryKey: team ? teamHoursKey(companyId, team.id) : businessHoursKey(companyId),
    queryFn: () => (team ? businessHoursApi.getTeam(team.id) : businessHoursApi.get()),
  });
  return (
    <>
      <PageHeader title="Horario de atención" subtitle="Cuándo atiende la compañía, sus feriados y el mensaje para quien escribe fuera de horario" />
      {teams.length > 0 && (
        <TextField
          select
          label="Horario de"
          value={team ? teamId : ''}
          onChange={(e) => setTeamId(e.target.value)}
          helperText="Un equipo puede tener su propio horario; si no, usa el de la compañía"
          sx={{ width: '100%', maxWidth: 420, mb: 3 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Compañía</MenuItem>
          {teams.map((x) => (
            <MenuItem key={x.id} value={x.id}>
              {x.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {query.isLoading ? (
        <Skeleton variant="rounded" height={420} data-testid="hours-loading" />
      ) : query.isError || !query.data ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              Reintentar
            </Button>
          }
        >
          No se pudo cargar el horario de atención.
        </Alert>
      ) : (
        <HoursForm key={`${companyId}:${team?.id ?? ''}:${query.data.updatedAt}:${'own' in query.data ? query.data.own : ''}`} hours={query.data} team={team} />
      )}
    </>
  );
}

export default BusinessHoursPage;
