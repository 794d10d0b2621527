import { type MetricOutput, metricChannels, metricChatChannels, orderStatusLabels, type Sentiment } from '@mostrador/contract';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import { ChannelLabel, channelColor, channelLabel } from '../../components/ui/channel-icon';
import { formatMoney, useCompanyMoney } from '../../lib/money';
import { type MetricsQuery, useMetric } from './api';
import { Donut, MonthlyBars, MonthlyLines, WeeklyBars } from './charts';
import { change, formatDecimal, formatNumber, formatShare, monthLabel, visibleMonths } from './model';
import { Columns, CountBars, Empty, Loaded, Panel, Stack, Stat, StatGrid } from './parts';
import { AdAccountPanel, AdCampaigns } from './ad-account';

export interface SectionProps {
  query: MetricsQuery;
}

function useSentimentColors(): Record<Sentiment, string> {
  const { palette } = useTheme();
  return { positive: palette.success.main, neutral: palette.grey[500], negative: palette.error.main };
}

/** «nov 2026: 165 · ▲ +12 % vs oct 2026» under a figure: the window's last month against the one before. */
function MonthChange({ months, pick, unit = '' }: { months: Array<{ month: string } & Record<string, unknown>>; pick: string; unit?: string }) {
  if (months.length < 2) return null;
  const last = months[months.length - 1];
  const before = months[months.length - 2];
  const now = Number(last[pick] ?? 0);
  const prev = Number(before[pick] ?? 0);
  const delta = change(now, prev);
  const color = delta === null || delta === 0 ? 'text.secondary' : delta > 0 ? 'success.main' : 'error.main';
  const arrow = delta === null || delta === 0 ? '' : delta > 0 ? '▲ +' : '▼ ';
  return (
    <Box component="span" sx={{ display: 'block' }}>
      {monthLabel(last.month)}: {formatNumber(now)}
      {unit} ·{' '}
      {delta === null ? (
        `${monthLabel(before.month)}: ${formatNumber(prev)}`
      ) : (
        <>
          <Box component="span" sx={{ color, fontWeight: 600 }}>
            {arrow}
            {formatShare(delta)}
          </Box>{' '}
          vs {monthLabel(before.month)}
        </>
      )}
    </Box>
  );
}

/** «CEO»: the figures an owner looks at first. */
export function CeoSection({ query }: SectionProps) {
  const ceo = useMetric('ceo_dashboard', query);
  const ads = useMetric('meta_ad_spend', query);
  const money = useCompanyMoney();
  return (
    <Stack>
      <Loaded<[MetricOutput<'ceo_dashboard'>]> queries={[ceo]} height={420}>
        {(data) => {
          const months = data.months.map((m) => ({ ...m }));
          const shown = visibleMonths(months, (m) => m.messages + m.newChats + m.newLeads + m.orders > 0);
          const rows = months.filter((m) => shown.includes(m.month));
          const sales = data.sales.length > 0 ? data.sales : [{ currency: money.currency, orders: 0, amount: 0 }];
          const orders = data.sales.reduce((sum, s) => sum + s.orders, 0);
          return (
            <Stack>
              <StatGrid label="Resumen">
                <Stat testId="ceo-messages" label="Mensajes" value={formatNumber(data.messages.total)} hint={<MonthChange months={months} pick="messages" />} />
                <Stat testId="ceo-chats" label="Chats nuevos" value={formatNumber(data.newChats)} hint={<MonthChange months={months} pick="newChats" />} />
                <Stat testId="ceo-leads" label="Leads nuevos" value={formatNumber(data.newLeads)} hint={<MonthChange months={months} pick="newLeads" />} />
                <Stat testId="ceo-sales" label="Ventas" value={sales.map((s) => formatMoney(s.amount, { currency: s.currency, locale: money.locale })).join(' · ')} hint={<MonthChange months={months} pick="orders" unit=" órdenes" />} />
                <Stat testId="ceo-orders" label="Órdenes" value={formatNumber(orders)} hint="Sin contar las canceladas" />
                <Stat testId="ceo-positive" label="Sentimiento positivo" value={formatShare(data.positiveShare)} hint={`Negativo: ${formatShare(data.negativeShare)} de ${formatNumber(data.analysed)} chats analizados`} />
                <Stat testId="ceo-coverage" label="Chats respondidos" value={formatShare(data.coverage)} hint="De los chats donde escribió el cliente" />
                <Stat testId="ceo-clean-leads" label="Leads limpios nuevos" value={formatNumber(data.newCleanLeads)} hint={`Usuarios nuevos: ${formatNumber(data.newUsers)}`} />
              </StatGrid>
              <Panel title="Por mes">
                {rows.every((m) => m.messages + m.newChats + m.newLeads === 0) ? (
                  <Empty>No hay actividad en este período</Empty>
                ) : (
                  <MonthlyLines
                    label="Mensajes, chats nuevos y leads nuevos por mes"
                    months={shown}
                    series={[
                      { id: 'messages', label: 'Mensajes', data: rows.map((m) => m.messages) },
                      { id: 'chats', label: 'Chats nuevos', data: rows.map((m) => m.newChats) },
                      { id: 'leads', label: 'Leads nuevos', data: rows.map((m) => m.newLeads) },
                    ]}
                  />
                )}
              </Panel>
            </Stack>
          );
        }}
      </Loaded>
      {/* only when the company runs Meta ads; its loading and its errors are «Ventas»' to show */}
      {ads.data && ads.data.campaigns.length > 0 && <AdCosts data={ads.data} locale={money.locale} />}
    </Stack>
  );
}

/**
 * What the ads brought, for the owner (decision 0047): spend over the leads, chats and sales the
 * campaigns' ads brought in the window, in the account's currency, then each campaign.
 */
function AdCosts({ data, locale }: { data: MetricOutput<'meta_ad_spend'>; locale: string }) {
  const currency = data.spend[0]?.currency ?? data.campaigns[0].currency;
  const of = data.campaigns.filter((c) => c.currency === currency);
  const total = (pick: (c: (typeof of)[number]) => number) => of.reduce((sum, c) => sum + pick(c), 0);
  const spend = total((c) => c.spend);
  const per = (n: number) => (n > 0 ? formatMoney(spend / n, { currency, locale }) : '—');
  const leads = total((c) => c.leads);
  const chats = total((c) => c.chats);
  const orders = total((c) => c.orders);
  return (
    <Panel title="Anuncios de Meta: lo que costó cada cliente" subtitle="Leads cuyo primer mensaje vino de un anuncio de la campaña, sus chats y sus ventas">
      <Stack>
        <StatGrid label="Costo por resultado">
          <Stat testId="ceo-ad-spend" label={`Inversión (${currency})`} value={formatMoney(spend, { currency, locale })} hint={`${formatNumber(leads)} leads · ${formatNumber(orders)} ventas`} />
          <Stat testId="ceo-cost-per-lead" label="Costo por lead" value={per(leads)} />
          <Stat testId="ceo-cost-per-chat" label="Costo por chat" value={per(chats)} />
          <Stat testId="ceo-cost-per-order" label="Costo por venta" value={per(orders)} />
        </StatGrid>
        <AdCampaigns data={data} locale={locale} />
      </Stack>
    </Panel>
  );
}

/** «Clean leads por mes»: total, months analysed, monthly average, best month, trend. */
export function CleanLeadsSection({ query }: SectionProps) {
  const q = useMetric('cleanleads_by_month', query);
  const theme = useTheme();
  return (
    <Loaded<[MetricOutput<'cleanleads_by_month'>]> queries={[q]} height={380}>
      {(data) => {
        const shown = visibleMonths(data.months, (m) => m.count > 0);
        const rows = data.months.filter((m) => shown.includes(m.month));
        return (
          <Stack>
            <StatGrid label="Leads limpios">
              <Stat testId="clean-total" label="Total de leads limpios" value={formatNumber(data.total)} />
              <Stat testId="clean-months" label="Meses analizados" value={formatNumber(data.monthsAnalysed)} />
              <Stat testId="clean-average" label="Promedio mensual" value={formatDecimal(data.monthlyAverage)} />
              <Stat testId="clean-best" label="Mejor mes" value={data.bestMonth ? monthLabel(data.bestMonth.month) : '—'} hint={data.bestMonth ? `${formatNumber(data.bestMonth.count)} leads limpios` : undefined} />
            </StatGrid>
            <Panel title="Tendencia">
              {data.total === 0 ? (
                <Empty>No hay leads limpios en este período</Empty>
              ) : (
                <MonthlyLines area label="Leads limpios por mes" months={shown} series={[{ id: 'clean', label: 'Leads limpios', data: rows.map((m) => m.count), color: theme.palette.primary.main }]} />
              )}
            </Panel>
          </Stack>
        );
      }}
    </Loaded>
  );
}

/** «Leads por mes»: by month and channel (web included). */
export function LeadsSection({ query }: SectionProps) {
  const q = useMetric('leads_by_month', query);
  return (
    <Loaded<[MetricOutput<'leads_by_month'>]> queries={[q]} height={380}>
      {(data) => {
        const shown = visibleMonths(data.months, (m) => m.count > 0);
        const counts = new Map(data.months.map((m) => [`${m.month}|${m.channel}`, m.count]));
        const series = metricChannels
          .map((channel) => ({ id: channel, label: channelLabel(channel), color: channelColor(channel), data: shown.map((month) => counts.get(`${month}|${channel}`) ?? 0) }))
          .filter((s) => s.data.some((n) => n > 0));
        return (
          <Stack>
            <StatGrid label="Leads">
              <Stat testId="leads-total" label="Total de leads" value={formatNumber(data.total)} />
              {[...data.byChannel].sort((a, b) => b.count - a.count).map((c) => (
                <Stat key={c.channel} testId={`leads-${c.channel}`} label={channelLabel(c.channel)} value={formatNumber(c.count)} accent={channelColor(c.channel)} />
              ))}
            </StatGrid>
            <Panel title="Leads por mes y canal">
              {data.total === 0 ? <Empty>No hay leads en este período</Empty> : <MonthlyBars stacked label="Leads por mes y canal" months={shown} series={series} />}
            </Panel>
          </Stack>
        );
      }}
    </Loaded>
  );
}

/** «General por canal»: total messages, main channel, trend, distribution, chats answered. */
export function ChannelSection({ query }: SectionProps) {
  const total = useMetric('total_messages', query);
  const byMonth = useMetric('messages_by_channel_by_month', query);
  const coverage = useMetric('chats_coverage_by_month', query);
  const chats = useMetric('new_chats', query);
  return (
    <Loaded<[MetricOutput<'total_messages'>, MetricOutput<'messages_by_channel_by_month'>, MetricOutput<'chats_coverage_by_month'>, MetricOutput<'new_chats'>]> queries={[total, byMonth, coverage, chats]} height={420}>
      {(totals, months, cover, opened) => {
        const shown = visibleMonths(months.months, (m) => m.total > 0);
        const counts = new Map(months.months.map((m) => [`${m.month}|${m.channel}`, m.total]));
        const series = metricChatChannels
          .map((channel) => ({ id: channel, label: channelLabel(channel), color: channelColor(channel), data: shown.map((month) => counts.get(`${month}|${channel}`) ?? 0) }))
          .filter((s) => s.data.some((n) => n > 0));
        return (
          <Stack>
            <StatGrid label="Mensajes">
              <Stat testId="channel-total" label="Total de mensajes" value={formatNumber(totals.total)} hint={`Recibidos: ${formatNumber(totals.inbound)} · Enviados: ${formatNumber(totals.outbound)}`} />
              <Stat text testId="channel-main" label="Canal principal" value={totals.mainChannel ? <ChannelLabel platform={totals.mainChannel} /> : '—'} hint={totals.mainChannel ? `${formatShare(totals.byChannel.find((c) => c.channel === totals.mainChannel)?.share)} de los mensajes` : undefined} />
              <Stat
                testId="channel-chats"
                label="Chats nuevos"
                value={formatNumber(opened.total)}
                hint={opened.byChannel.filter((c) => c.count > 0).sort((a, b) => b.count - a.count).map((c) => `${channelLabel(c.channel)}: ${formatNumber(c.count)}`).join(' · ') || undefined}
              />
              <Stat testId="channel-coverage" label="Chats respondidos" value={formatShare(cover.coverage)} hint={`${formatNumber(cover.answeredChats)} de ${formatNumber(cover.activeChats)} chats activos`} />
            </StatGrid>
            {totals.total === 0 ? (
              <Panel title="Mensajes">
                <Empty>No hay mensajes en este período</Empty>
              </Panel>
            ) : (
              <Columns>
                <Panel title="Distribución por canal">
                  <Donut testId="channel-distribution" label="Mensajes por canal" slices={totals.byChannel.map((c) => ({ id: c.channel, label: channelLabel(c.channel), value: c.total, color: channelColor(c.channel) }))} />
                </Panel>
                <Panel title="Tendencia por canal">
                  <MonthlyLines label="Mensajes por mes y canal" months={shown} series={series} />
                </Panel>
              </Columns>
            )}
          </Stack>
        );
      }}
    </Loaded>
  );
}

export type SentimentMode = 'conteos' | 'mensual';

/** «Análisis de sentimiento»: counts (shares, distribution, origins, cross-selling, promotions) or by month. */
export function SentimentSection({ query, mode, onMode }: SectionProps & { mode: SentimentMode; onMode: (mode: SentimentMode) => void }) {
  return (
    <Stack>
      <ToggleButtonGroup exclusive size="small" value={mode} onChange={(_, value: SentimentMode | null) => value && onMode(value)} aria-label="Vista" sx={{ justifySelf: 'start' }}>
        <ToggleButton value="conteos">Conteos</ToggleButton>
        <ToggleButton value="mensual">Mensual</ToggleButton>
      </ToggleButtonGroup>
      {mode === 'conteos' ? <SentimentCounts query={query} /> : <SentimentMonthly query={query} />}
    </Stack>
  );
}

function SentimentCounts({ query }: SectionProps) {
  const q = useMetric('sentiment_analysis', query);
  const colors = useSentimentColors();
  return (
    <Loaded<[MetricOutput<'sentiment_analysis'>]> queries={[q]} height={420}>
      {(data) => (
        <Stack>
          <StatGrid label="Sentimiento">
            <Stat testId="sentiment-analysed" label="Chats analizados" value={formatNumber(data.analysed)} />
            <Stat testId="sentiment-positive" label="Positivos" value={formatShare(data.positiveShare)} accent={colors.positive} />
            <Stat testId="sentiment-negative" label="Negativos" value={formatShare(data.negativeShare)} accent={colors.negative} />
            <Stat testId="sentiment-cross-sell" label="Venta cruzada efectiva" value={formatShare(data.crossSellEffectiveness)} hint={`${formatNumber(data.crossSellTaken)} aceptadas de ${formatNumber(data.crossSellOffered)} ofrecidas`} />
            <Stat testId="sentiment-promotions" label="Promociones personalizadas" value={formatNumber(data.personalisedPromotions)} />
          </StatGrid>
          {data.analysed === 0 ? (
            <Panel title="Distribución">
              <Empty>Aún no hay chats analizados en este período</Empty>
            </Panel>
          ) : (
            <Columns>
              <Panel title="Distribución">
                <Donut testId="sentiment-distribution" label="Chats por sentimiento" slices={data.counts.map((c) => ({ id: c.sentiment, label: c.label, value: c.count, color: colors[c.sentiment] }))} />
              </Panel>
              <Panel title="Orígenes de la insatisfacción" subtitle="En los chats negativos">
                {data.origins.every((o) => o.count === 0) ? (
                  <Empty>Ningún chat negativo en este período</Empty>
                ) : (
                  <CountBars testId="sentiment-origins" color="error" label="Orígenes de la insatisfacción" items={data.origins.map((o) => ({ key: o.origin, label: o.label, count: o.count }))} />
                )}
              </Panel>
            </Columns>
          )}
        </Stack>
      )}
    </Loaded>
  );
}

function SentimentMonthly({ query }: SectionProps) {
  const q = useMetric('sentiment_analysis_by_month', query);
  const colors = useSentimentColors();
  return (
    <Loaded<[MetricOutput<'sentiment_analysis_by_month'>]> queries={[q]} height={380}>
      {(data) => {
        const shown = visibleMonths(data.months, (m) => m.analysed > 0);
        const rows = data.months.filter((m) => shown.includes(m.month));
        const labels = rows[0]?.counts ?? [];
        return (
          <Panel title="Sentimiento por mes" subtitle="Chats analizados de cada mes por sentimiento">
            {rows.every((m) => m.analysed === 0) ? (
              <Empty>Aún no hay chats analizados en este período</Empty>
            ) : (
              <>
                <MonthlyBars
                  stacked
                  label="Chats por sentimiento y mes"
                  months={shown}
                  series={labels.map((l) => ({ id: l.sentiment, label: l.label, color: colors[l.sentiment], data: rows.map((m) => m.counts.find((c) => c.sentiment === l.sentiment)?.count ?? 0) }))}
                />
                <Table size="small" aria-label="Sentimiento por mes" data-testid="sentiment-months" sx={{ mt: 1, '& td, & th': { px: { xs: 0.75, sm: 2 } } }}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Mes</TableCell>
                      <TableCell align="right">Analizados</TableCell>
                      <TableCell align="right">Positivos</TableCell>
                      <TableCell align="right">Negativos</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {rows
                      .filter((m) => m.analysed > 0)
                      .map((m) => (
                        <TableRow key={m.month}>
                          <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                            {monthLabel(m.month)}
                          </TableCell>
                          <TableCell align="right">{formatNumber(m.analysed)}</TableCell>
                          <TableCell align="right" sx={{ color: colors.positive, fontWeight: 600 }}>
                            {formatShare(m.positiveShare)}
                          </TableCell>
                          <TableCell align="right" sx={{ color: colors.negative, fontWeight: 600 }}>
                            {formatShare(m.negativeShare)}
                          </TableCell>
                        </TableRow>
                      ))}
                  </TableBody>
                </Table>
              </>
            )}
          </Panel>
        );
      }}
    </Loaded>
  );
}

/** «Motivos de consulta»: why customers wrote, in the window and by month. */
export function MotivesSection({ query }: SectionProps) {
  const counts = useMetric('consultation_motives_counts', query);
  const byMonth = useMetric('consultation_motives_by_month', query);
  return (
    <Loaded<[MetricOutput<'consultation_motives_counts'>, MetricOutput<'consultation_motives_by_month'>]> queries={[counts, byMonth]} height={420}>
      {(data, months) => {
        const shown = visibleMonths(months.months, (m) => m.analysed > 0);
        const rows = months.months.filter((m) => shown.includes(m.month));
        const top = [...data.counts].sort((a, b) => b.count - a.count).slice(0, 4).filter((c) => c.count > 0);
        return (
          <Stack>
            <StatGrid label="Motivos">
              <Stat testId="motives-analysed" label="Chats analizados" value={formatNumber(data.analysed)} />
              <Stat text testId="motives-top" label="Motivo principal" value={top[0]?.label ?? '—'} hint={top[0] ? `${formatNumber(top[0].count)} chats` : undefined} />
            </StatGrid>
            {data.analysed === 0 ? (
              <Panel title="Motivos de consulta">
                <Empty>Aún no hay chats analizados en este período</Empty>
              </Panel>
            ) : (
              <Columns>
                <Panel title="Motivos de consulta">
                  <CountBars testId="motives" label="Motivos de consulta" items={data.counts.map((c) => ({ key: c.motive, label: c.label, count: c.count }))} />
                </Panel>
                <Panel title="Principales motivos por mes">
                  <MonthlyBars
                    stacked
                    label="Principales motivos por mes"
                    months={shown}
                    series={top.map((t) => ({ id: t.motive, label: t.label, data: rows.map((m) => m.counts.find((c) => c.motive === t.motive)?.count ?? 0) }))}
                  />
                </Panel>
              </Columns>
            )}
          </Stack>
        );
      }}
    </Loaded>
  );
}

/** «Ventas»: orders and amounts by month (per currency), orders by status, cross-selling, Meta ads. */
export function SalesSection({ query }: SectionProps) {
  const sales = useMetric('sales_by_month', query);
  const analysis = useMetric('sales_analysis_counts', query);
  const ads = useMetric('meta_ad_spend', query);
  const money = useCompanyMoney();
  const theme = useTheme();
  return (
    <Stack>
      <Loaded<[MetricOutput<'sales_by_month'>]> queries={[sales]} height={380}>
        {(data) => {
          const currencies = data.totals.length > 0 ? data.totals.map((t) => t.currency) : [money.currency];
          const main = currencies.includes(money.currency) ? money.currency : currencies[0];
          const shown = visibleMonths(data.months, (m) => m.orders > 0);
          const amount = (month: string) => data.months.find((m) => m.month === month && m.currency === main)?.amount ?? 0;
          const orders = data.totals.reduce((sum, t) => sum + t.orders, 0);
          const fmt = (n: number, currency = main) => formatMoney(n, { currency, locale: money.locale });
          return (
            <Stack>
              <StatGrid label="Ventas">
                {(data.totals.length > 0 ? data.totals : [{ currency: main, orders: 0, amount: 0 }]).map((t) => (
                  <Stat key={t.currency} testId={`sales-amount-${t.currency}`} label={`Ventas (${t.currency})`} value={fmt(t.amount, t.currency)} hint={`${formatNumber(t.orders)} órdenes`} />
                ))}
                <Stat testId="sales-orders" label="Órdenes" value={formatNumber(orders)} hint="Sin contar las canceladas" />
              </StatGrid>
              {orders === 0 ? (
                <Panel title="Ventas por mes">
                  <Empty>No hay órdenes en este período</Empty>
                </Panel>
              ) : (
                <Columns>
                  <Panel title={`Ventas por mes (${main})`}>
                    <MonthlyBars label="Ventas por mes" months={shown} format={(n) => fmt(n)} series={[{ id: 'amount', label: 'Ventas', data: shown.map(amount), color: theme.palette.success.main }]} />
                  </Panel>
                  <Panel title="Órdenes por estado">
                    <CountBars testId="sales-status" label="Órdenes por estado" items={data.byStatus.map((s) => ({ key: s.status, label: orderStatusLabels[s.status], count: s.orders }))} />
                  </Panel>
                </Columns>
              )}
            </Stack>
          );
        }}
      </Loaded>
      <Panel title="Venta cruzada y promociones" subtitle="Lo que la IA leyó en los chats analizados">
        <Loaded<[MetricOutput<'sales_analysis_counts'>]> queries={[analysis]} height={120}>
          {(data) => (
            <StatGrid label="Venta cruzada">
              <Stat testId="sales-cross-offered" label="Venta cruzada ofrecida" value={formatNumber(data.crossSellOffered)} hint={`de ${formatNumber(data.analysed)} chats analizados`} />
              <Stat testId="sales-cross-taken" label="Aceptada" value={formatNumber(data.crossSellTaken)} hint={`Efectividad: ${formatShare(data.crossSellEffectiveness)}`} />
              <Stat testId="sales-promotions" label="Promociones personalizadas" value={formatNumber(data.personalisedPromotions)} />
            </StatGrid>
          )}
        </Loaded>
      </Panel>
      <RecoveredSales query={query} />
      <Panel title="Inversión en anuncios de Meta">
        <Stack>
          <Loaded<[MetricOutput<'meta_ad_spend'>]> queries={[ads]} height={120}>
            {(data) =>
              data.spend.length === 0 && data.campaigns.length === 0 ? (
                <Empty testId="ads-empty">Conecta tu cuenta publicitaria de Meta para ver aquí la inversión, las impresiones y los clics de tus campañas.</Empty>
              ) : (
                <Stack>
                  <StatGrid label="Anuncios">
                    {data.spend.map((s) => (
                      <Stat key={s.currency} testId={`ads-spend-${s.currency}`} label={`Inversión (${s.currency})`} value={formatMoney(s.amount, { currency: s.currency, locale: money.locale })} />
                    ))}
                    <Stat testId="ads-impressions" label="Impresiones" value={formatNumber(data.impressions)} />
                    <Stat testId="ads-clicks" label="Clics" value={formatNumber(data.clicks)} />
                  </StatGrid>
                  <AdCampaigns data={data} locale={money.locale} />
                </Stack>
              )
            }
          </Loaded>
          <AdAccountPanel />
        </Stack>
      </Panel>
    </Stack>
  );
}

/** «Calidad y categorías IA»: the business's side 1–5, and what kind of conversation it was. */
export function QualitySection({ query }: SectionProps) {
  const quality = useMetric('conversation_quality', query);
  const categories = useMetric('ai_categories', query);
  const theme = useTheme();
  return (
    <Loaded<[MetricOutput<'conversation_quality'>, MetricOutput<'ai_categories'>]> queries={[quality, categories]} height={420}>
      {(q, c) => {
        const shown = visibleMonths(q.months, (m) => m.analysed > 0);
        const rows = q.months.filter((m) => shown.includes(m.month));
        return (
          <Stack>
            <StatGrid label="Calidad">
              <Stat testId="quality-average" label="Calidad promedio" value={q.average === null ? '—' : `${formatDecimal(q.average)} / 5`} hint={`${formatNumber(q.analysed)} chats analizados`} />
              <Stat text testId="quality-top-category" label="Categoría principal" value={[...c.counts].sort((a, b) => b.count - a.count).find((x) => x.count > 0)?.label ?? '—'} />
            </StatGrid>
            {q.analysed === 0 && c.analysed === 0 ? (
              <Panel title="Calidad de la atención">
                <Empty>Aún no hay chats analizados en este período</Empty>
              </Panel>
            ) : (
              <Columns>
                <Panel title="Calidad de la atención" subtitle="De 1 (mala) a 5 (excelente)">
                  <CountBars testId="quality-distribution" label="Calidad de la atención" sorted={false} items={[...q.distribution].reverse().map((d) => ({ key: String(d.quality), label: `${d.quality} ${'★'.repeat(d.quality)}`, count: d.count }))} color="warning" />
                  {rows.some((m) => m.average !== null) && (
                    <MonthlyLines label="Calidad promedio por mes" height={200} months={shown} format={formatDecimal} series={[{ id: 'quality', label: 'Calidad promedio', data: rows.map((m) => m.average), color: theme.palette.warning.main }]} />
                  )}
                </Panel>
                <Panel title="Categorías IA">
                  <CountBars testId="categories" label="Categorías IA" color="secondary" items={c.counts.map((x) => ({ key: x.category, label: x.label, count: x.count }))} />
                </Panel>
              </Columns>
            )}
          </Stack>
        );
      }}
    </Loaded>
  );
}

/** «Compromiso del cliente»: SPEC §2 shows it as coming soon. */
export function EngagementSection() {
  return (
    <Panel title="Compromiso del cliente" testId="engagement">
      <Box sx={{ py: 4, display: 'grid', justifyItems: 'center', gap: 1, color: 'text.secondary', textAlign: 'center' }}>
        <HourglassEmpty fontSize="large" />
        <Typography variant="h6" component="p">
          Próximamente
        </Typography>
        <Typography>Aquí verás cuánto interactúan tus clientes con tus mensajes.</Typography>
      </Box>
    </Panel>
  );
}

/**
 * «Ventas recuperadas» (decision 0089): the follow-ups sent to chats with purchase intent and no
 * order, the orders placed within 72 h of one and what they sold, beside the chats with intent that
 * got none — by week.
 */
function RecoveredSales({ query }: SectionProps) {
  const recovered = useMetric('recovered_sales', query);
  const money = useCompanyMoney();
  const theme = useTheme();
  return (
    <Panel title="Ventas recuperadas" subtitle="Seguimientos a chats con intención de compra sin pedido, y lo que compraron en las 72 horas siguientes" testId="recovered-sales">
      <Loaded<[MetricOutput<'recovered_sales'>]> queries={[recovered]} height={160}>
        {(data) =>
          data.followups === 0 && data.withoutFollowup.chats === 0 ? (
            <Empty testId="recovered-empty">Aún no hay chats con intención de compra en este período. Activa «Recuperar ventas» en Automatizaciones.</Empty>
          ) : (
            <Stack>
              <StatGrid label="Ventas recuperadas">
                <Stat testId="recovered-followups" label="Seguimientos enviados" value={formatNumber(data.followups)} />
                <Stat testId="recovered-orders" label="Pedidos en 72 h" value={formatNumber(data.orders)} hint={`Conversión: ${formatShare(data.conversion)}`} />
                {(data.revenue.length ? data.revenue : [{ currency: money.currency, amount: 0 }]).map((r) => (
                  <Stat key={r.currency} testId={`recovered-revenue-${r.currency}`} label={`Ventas recuperadas (${r.currency})`} value={formatMoney(r.amount, { currency: r.currency, locale: money.locale })} />
                ))}
                <Stat
                  testId="recovered-baseline"
                  label="Sin seguimiento"
                  value={formatNumber(data.withoutFollowup.chats)}
                  hint={`${formatNumber(data.withoutFollowup.orders)} compraron · conversión ${formatShare(data.withoutFollowup.conversion)}`}
                />
              </StatGrid>
              {data.weeks.length > 0 && (
                <WeeklyBars
                  label="Ventas recuperadas por semana"
                  weeks={data.weeks.map((w) => w.week)}
                  series={[
                    { id: 'followups', label: 'Seguimientos', data: data.weeks.map((w) => w.followups), color: theme.palette.primary.main },
                    { id: 'orders', label: 'Pedidos tras un seguimiento', data: data.weeks.map((w) => w.orders), color: theme.palette.success.main },
                    { id: 'without', label: 'Con intención, sin seguimiento', data: data.weeks.map((w) => w.withoutFollowup), color: theme.palette.grey[400] },
                    { id: 'ordersWithout', label: 'Pedidos sin seguimiento', data: data.weeks.map((w) => w.ordersWithout), color: theme.palette.warning.main },
                  ]}
                />
              )}
            </Stack>
          )
        }
      </Loaded>
    </Panel>
  );
}
