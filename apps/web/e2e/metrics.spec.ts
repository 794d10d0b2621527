import type { Page } from '@playwright/test';
import { accounts, expect, signIn, test } from './helpers';

// the sentiment view fills after the analysis engine's first sweep of the demo's chats (a minute or two)
test.describe.configure({ timeout: 180_000 });

const METRICS_LOAD_ERROR = 'Error al cargar los datos. Por favor, intente nuevamente.';

/** Opens a view from the tabs (desk width) and waits for its figure. */
async function openView(page: Page, tab: string) {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  await expect(page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
}

/**
 * /metricas (SPEC §2 Metrics views, §7, §8) over the demo's seeded chats, messages, leads and
 * orders: every section shows its figures, a preset asks for its days, a failed call says so
 * in Spanish and «Reintentar» loads it.
 */
test('metrics: each section with the demo’s data, a preset, and a failure', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/metricas');
  await expect(page.getByRole('heading', { name: 'Métricas', level: 1 })).toBeVisible();

  // CEO (default view, the last 6 months)
  await expect(page.getByTestId('ceo-messages-value')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByTestId('ceo-leads-value')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByTestId('ceo-sales-value')).toContainText('S/');
  await expect(page.getByRole('img', { name: 'Mensajes, chats nuevos y leads nuevos por mes' })).toBeVisible();

  await openView(page, 'Clean leads por mes');
  await expect(page.getByTestId('clean-total-value')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByTestId('clean-months-value')).toHaveText('6');
  await expect(page.getByTestId('clean-best-value')).toHaveText(/^[a-z]{3} \d{4}$/);
  await expect(page).toHaveURL(/vista=clean-leads/);

  await openView(page, 'Leads por mes');
  await expect(page.getByTestId('leads-total-value')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByTestId('leads-whatsapp-value')).toHaveText(/^\d[\d,]*$/);

  await openView(page, 'General por canal');
  await expect(page.getByTestId('channel-total-value')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByTestId('channel-main-value')).toHaveText(/^(WhatsApp|Facebook|Instagram)$/);
  await expect(page.getByRole('list', { name: 'Mensajes por canal' }).getByRole('listitem')).toHaveCount(3);

  // channel filter: the calls that take it get it, and the address keeps it
  const filtered = page.waitForRequest((r) => r.url().endsWith('/api/metrics/total_messages') && r.postDataJSON()?.channel === 'whatsapp');
  await page.getByRole('combobox', { name: 'Canal' }).click();
  await page.getByRole('option', { name: 'WhatsApp' }).click();
  await filtered;
  await expect(page).toHaveURL(/canal=whatsapp/);
  await expect(page.getByTestId('channel-main-value')).toHaveText('WhatsApp');

  // a preset asks for its days and stays in the address
  const year2023 = page.waitForRequest((r) => r.url().endsWith('/api/metrics/total_messages') && r.postDataJSON()?.from === '2023-01-01' && r.postDataJSON()?.to === '2023-12-31');
  await page.getByRole('button', { name: 'Año 2023' }).click();
  await year2023;
  await expect(page).toHaveURL(/rango=ano-2023/);
  await expect(page.getByTestId('metrics-window')).toContainText('Del 1 ene 2023 al 31 dic 2023');
  await expect(page.getByTestId('channel-total-value')).toHaveText('0');
  await expect(page.getByText('No hay mensajes en este período')).toBeVisible();
  await page.getByRole('button', { name: 'Últimos 6 meses' }).click();
  await expect(page.getByTestId('channel-total-value')).toHaveText(/^[1-9][\d,]*$/);

  await openView(page, 'Ventas');
  await expect(page.getByTestId('sales-orders-value')).toHaveText(/^[1-9][\d,]*$/);
  // the demo's sandbox ad account: its spend, and its campaigns largest first (decision 0047)
  await expect(page.getByTestId('ads-spend-USD-value')).toHaveText(/\d/);
  await expect(page.getByRole('list', { name: 'Campañas de Meta' }).getByRole('listitem').first()).toContainText('Clic a WhatsApp · Gaseosas 2x1');
  await expect(page.getByText(/Cuenta publicitaria demo \(sandbox\) \(act_100000000000001\)/)).toBeVisible();

  await openView(page, 'Compromiso del cliente');
  await expect(page.getByTestId('engagement')).toContainText('Próximamente');

  // sentiment: once the first analysis sweep has run, the counts and the monthly view
  await page.goto('/metricas?vista=sentimiento');
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('sentiment-analysed-value')).toHaveText(/^[1-9][\d,]*$/, { timeout: 5_000 });
  }).toPass({ timeout: 150_000, intervals: [5_000] });
  await expect(page.getByTestId('sentiment-positive-value')).toHaveText(/%$/);
  await expect(page.getByRole('list', { name: 'Chats por sentimiento' }).getByRole('listitem')).toHaveCount(3);
  await page.getByRole('button', { name: 'Mensual' }).click();
  await expect(page.getByTestId('sentiment-months').getByRole('row').nth(1)).toContainText('%');
});

test('a failed metric says so in Spanish and «Reintentar» loads it', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.route('**/api/metrics/ceo_dashboard', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ errors: { code: 'INTERNAL', msg: 'Error interno' } }) }),
  );
  await page.goto('/metricas');
  const error = page.getByTestId('metric-error');
  await expect(error).toContainText(METRICS_LOAD_ERROR);
  await expect(page.getByText('Error interno')).toHaveCount(0);
  await page.unroute('**/api/metrics/ceo_dashboard');
  await error.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByTestId('ceo-messages-value')).toHaveText(/^[1-9][\d,]*$/);
  await expect(page.getByTestId('metric-error')).toHaveCount(0);
});
