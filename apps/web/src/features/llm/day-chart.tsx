import type { LlmSummaryOut } from '@mostrador/contract';
import { BarChart } from '@mui/x-charts/BarChart';
import type { Money } from '../../lib/money';
import { dayLabel, formatCost } from './format';

const chartLocale = { noData: 'Sin datos', loading: 'Cargando…' };

/** The cost per day in the company's currency (loaded apart: the list shows before the chart's code). */
export default function LlmDayChart({ days, money }: { days: LlmSummaryOut['days']; money: Money }) {
  return (
    <BarChart
      height={220}
      localeText={chartLocale}
      margin={{ left: 0, right: 8, top: 8, bottom: 0 }}
      xAxis={[{ scaleType: 'band', data: days.map((d) => d.day), valueFormatter: (d: string) => dayLabel(d), tickLabelMinGap: 12 }]}
      yAxis={[{ width: 64, valueFormatter: (v: number) => formatCost(v, money) }]}
      series={[{ id: 'cost', data: days.map((d) => d.costLocal), label: `Costo (${money.currency})`, color: '#28156C', valueFormatter: (v: number | null) => (v === null ? '' : formatCost(v, money)) }]}
      hideLegend
    />
  );
}
