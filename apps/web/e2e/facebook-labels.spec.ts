import type { Page } from '@playwright/test';
import { accounts, apiAs, expect, signIn, test } from './helpers';

// a labelling, the labels' job and a reload until the page shows it, twice: room for a busy machine
test.describe.configure({ timeout: 90_000 });

/**
 * Facebook labels on people (issue 15, decision 0057): the demo's page label «Cliente nuevo»
 * stands for one of Demo Perú's Mostrador labels. Putting that label on a Messenger lead puts
 * the page label on the person at Facebook (the demo's sandbox page), and /etiquetas-facebook
 * counts one person more; taking it off takes it off there, and the count goes back.
 */
type Label = { _id: string; name: string; facebookLabelId?: string; foreignLabelId?: string };
type Lead = { _id: string; name: string; platformUserId?: string; mostradorLabels?: string[] };

/** The people «En Facebook» of a label's row, as a number. */
async function peopleOn(page: Page, name: string): Promise<number> {
  const cell = page.getByRole('row', { name: new RegExp(name) }).getByTestId('facebook-label-people');
  await expect(cell).toHaveText(/^\d[\d.,]* personas?/);
  return Number((await cell.innerText()).replace(/[.,]/g, '').match(/^\d+/)?.[0]);
}

/** Reloads /etiquetas-facebook until the label's row counts `n` people (the job runs in the background). */
async function expectPeople(page: Page, name: string, n: number) {
  await expect(async () => {
    await page.reload();
    expect(await peopleOn(page, name)).toBe(n);
  }).toPass({ timeout: 45_000, intervals: [500, 1000, 2000] });
}

test('a Mostrador label put on a Messenger lead reaches its page label at Facebook, and leaves with it', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const { payload: labels } = await apiAs<{ payload: Label[] }>(page, '/facebook-labels?limit=200');
  const label = labels.find((l) => l.name === 'Cliente nuevo');
  expect(label?.foreignLabelId, 'the demo links «Cliente nuevo» to a Mostrador label').toBeTruthy();
  const { payload: leads } = await apiAs<{ payload: Lead[] }>(page, '/leads?platform=facebook&limit=200');
  const lead = leads.find((l) => l.platformUserId && !(l.mostradorLabels ?? []).includes(label?.foreignLabelId as string));
  expect(lead, 'a Messenger lead without the label').toBeTruthy();
  const own = lead?.mostradorLabels ?? [];

  await page.goto('/etiquetas-facebook');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const before = await peopleOn(page, 'Cliente nuevo');

  // the label put on the lead, as the lead's form saves it
  await apiAs(page, `/leads/${lead?._id}`, { method: 'PUT', body: { mostradorLabels: [...own, label?.foreignLabelId] } });
  await expectPeople(page, 'Cliente nuevo', before + 1);

  // and taken off again
  await apiAs(page, `/leads/${lead?._id}`, { method: 'PUT', body: { mostradorLabels: own } });
  await expectPeople(page, 'Cliente nuevo', before);
  await expect(page.getByTestId('facebook-label-failure')).toHaveCount(0);
});
