import type { CsatReport } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { csatKeys } from '../../lib/query-keys';
import { useSession } from '../../lib/session';
import type { MetricsQuery } from './api';
import { formatDecimal, formatNumber, formatShare } from './model';
import { Empty, Loaded, Panel, Stat, StatGrid, Stack, useNarrow } from './parts';

/** The section's Spanish texts. */
export const csatTexts = {
  title: 'Satisfacción del cliente (CSAT)',
  subtitle: 'Lo que responden los clientes a la encuesta que reciben por WhatsApp al resolver su chat, por el agente que lo resolvió',
  sent: 'Encuestas enviadas',
  answered: 'Respondidas',
  rate: 'Tasa de respuesta',
  average: 'Promedio (1 a 5)',
  satisfied: 'Satisfechos',
  satisfiedHint: 'Respondieron 4 o 5 («Bien»)',
  notSent: 'Sin enviar',
  notSentHint: 'Fuera de la ventana de 24 h o sin canal',
  agent: 'Agente',
  empty: 'Aún no hay encuestas de satisfacción en este rango. Actívalas en Configuración → Encuesta de satisfacción.',
} as const;

/** GET /api/metrics/csat: the report per agent of the window (the screen shows its own message on a failure). */
export function useCsatReport(query: Pick<MetricsQuery, 'from' | 'to'>) {
  const { companyId } = useSession();
  return useQuery({
    queryKey: csatKeys.report(companyId, query.from, query.to),
    queryFn: ({ signal }) =>
      api.get<CsatReport>(`/metrics/csat?from=${encodeURIComponent(query.from)}&to=${encodeURIComponent(query.to)}`, { overlay: false, notify: false, signal }),
    placeholderData: keepPreviousData,
    meta: { quiet: true },
  });
}

const average = (n: number | null) => (n === null ? '—' : formatDecimal(n));

/**
 * CSAT per agent (issue 31, decision 0100): the window's surveys sent, answered, the response
 * rate, the average score and the share satisfied, for the company and for each agent. On a
 * phone each agent is a card of figures; on a desk, a table.
 */
export function CsatSection({ query }: { query: Pick<MetricsQuery, 'from' | 'to'> }) {
  const report = useCsatReport(query);
  const narrow = useNarrow();
  return (
    <Panel title={csatTexts.title} subtitle={csatTexts.subtitle} testId="csat-section">
      <Loaded<[CsatReport]> queries={[report]} height={200}>
        {(data) =>
          data.total.sent + data.total.notSent === 0 ? (
            <Empty testId="csat-empty">{csatTexts.empty}</Empty>
          ) : (
            <Stack>
              <StatGrid label={csatTexts.title}>
                <Stat testId="csat-sent" label={csatTexts.sent} value={formatNumber(data.total.sent)} hint={data.total.notSent ? `${csatTexts.notSent}: ${formatNumber(data.total.notSent)}` : undefined} />
                <Stat testId="csat-rate" label={csatTexts.rate} value={formatShare(data.total.responseRate)} hint={`${csatTexts.answered}: ${formatNumber(data.total.answered)}`} />
                <Stat testId="csat-average" label={csatTexts.average} value={average(data.total.average)} />
                <Stat testId="csat-satisfied" label={csatTexts.satisfied} value={formatShare(data.total.satisfiedShare)} hint={csatTexts.satisfiedHint} />
              </StatGrid>
              {narrow ? (
                <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }} aria-label={csatTexts.agent}>
                  {data.agents.map((a) => (
                    <Box component="li" key={a.agentId ?? 'none'} data-testid="csat-agent" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
                      <Typography variant="subtitle2" component="p">
                        {a.agentName}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {csatTexts.sent}: {formatNumber(a.sent)} · {csatTexts.answered}: {formatNumber(a.answered)} ({formatShare(a.responseRate)})
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {csatTexts.average}: {average(a.average)} · {csatTexts.satisfied}: {formatShare(a.satisfiedShare)}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              ) : (
                <Box sx={{ overflowX: 'auto' }}>
                  <Table size="small" aria-label={csatTexts.title}>
                    <TableHead>
                      <TableRow>
                        <TableCell>{csatTexts.agent}</TableCell>
                        <TableCell align="right">{csatTexts.sent}</TableCell>
                        <TableCell align="right">{csatTexts.answered}</TableCell>
                        <TableCell align="right">{csatTexts.rate}</TableCell>
                        <TableCell align="right">{csatTexts.average}</TableCell>
                        <TableCell align="right">{csatTexts.satisfied}</TableCell>
                        <TableCell align="right">{csatTexts.notSent}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {data.agents.map((a) => (
                        <TableRow key={a.agentId ?? 'none'} data-testid="csat-agent">
                          <TableCell component="th" scope="row">
                            {a.agentName}
                          </TableCell>
                          <TableCell align="right">{formatNumber(a.sent)}</TableCell>
                          <TableCell align="right">{formatNumber(a.answered)}</TableCell>
                          <TableCell align="right">{formatShare(a.responseRate)}</TableCell>
                          <TableCell align="right">{average(a.average)}</TableCell>
                          <TableCell align="right">{formatShare(a.satisfiedShare)}</TableCell>
                          <TableCell align="right">{formatNumber(a.notSent)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </Stack>
          )
        }
      </Loaded>
    </Panel>
  );
}
