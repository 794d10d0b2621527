import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceListPage } from '../../components/crud/resource-list-page';
import { sessionStore } from '../../lib/session';
import { screen as categoriesScreen } from './ecommerces-categories-screen';
import { type FakeCall, fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import type { StoreCategory } from './api';
import { categoryTrees } from './category-tree';

vi.setConfig({ testTimeout: 20_000 });

let n = 0;
const cat = (name: string, id: number | undefined, parent: number, country: string | undefined, products = 0): StoreCategory => ({
  _id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  name,
  slug: name.toLowerCase(),
  parent,
  ...(id !== undefined ? { id } : {}),
  ...(country ? { country } : {}),
  products,
});
const ropa = cat('Ropa', 21, 0, 'PE', 0);
const polos = cat('Polos', 34, 21, 'PE', 12);
const chompas = cat('Chompas', 35, 21, 'PE', 3);
const calzado = cat('Calzado', 47, 0, 'PE');
const ropaCl = cat('Ropa', 21, 0, 'CL');
const polosCl = cat('Polos', 34, 21, 'CL', 1);
const huerfana = cat('Huérfana', 90, 77, 'CL');
const propia = cat('Regalos', undefined, 0, undefined);
const categories = [polos, ropa, chompas, calzado, polosCl, ropaCl, huerfana, propia];

const names = (nodes: ReturnType<typeof categoryTrees>[number]['roots']): unknown[] =>
  nodes.map((node) => (node.children.length ? [node.category.name, names(node.children)] : node.category.name));

describe('categoryTrees', () => {
  it('builds one tree per store (parent 0 at the top, a child under its parent\'s store id), sorted by name', () => {
    const groups = categoryTrees(categories);
    expect(groups.map((g) => g.country)).toEqual(['PE', 'CL', undefined]);
    expect(names(groups[0].roots)).toEqual(['Calzado', ['Ropa', ['Chompas', 'Polos']]]);
    expect(groups[0].count).toBe(4);
    // the same store ids in Chile are Chile's own
    expect(names(groups[1].roots)).toEqual(['Huérfana', ['Ropa', ['Polos']]]);
    expect(groups[1].roots[0].orphan).toBe(true);
    expect(names(groups[2].roots)).toEqual(['Regalos']);
  });

  it('keeps only the matches with the branches leading to them', () => {
    const groups = categoryTrees(categories, 'pol');
    expect(groups.map((g) => [g.country, names(g.roots)])).toEqual([
      ['PE', [['Ropa', ['Polos']]]],
      ['CL', [['Ropa', ['Polos']]]],
    ]);
    expect(categoryTrees(categories, 'nada')).toEqual([]);
  });
});

function serve(list: StoreCategory[]) {
  return fakeApi((call: FakeCall) => {
    if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: { ecommerce: ['list', 'read', 'create', 'update', 'delete'] } } };
    if (call.method === 'GET' && call.path === '/ecommerces/categories') return { status: 200, body: { payload: list } };
    if (call.method === 'GET') return { status: 200, body: pageOf([]) };
    if (call.method === 'POST' && call.path === '/ecommerces-categories') return { status: 201, body: { _id: 'x', ...(call.body as object) } };
    return undefined;
  });
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('/ecommerce/categorias as a tree', () => {
  it('shows each store\'s tree with product counts, folds a branch, and adds a subcategory under its parent', async () => {
    const user = userEvent.setup();
    const { calls } = serve(categories);
    renderApp(<ResourceListPage config={categoriesScreen} />, { route: '/ecommerce/categorias' });
    const peru = await screen.findByRole('tree', { name: 'Categorías: Tienda de Perú' }, { timeout: 10_000 });
    const ropaItem = within(peru).getByRole('treeitem', { name: 'Ropa' });
    expect(ropaItem.getAttribute('aria-expanded')).toBe('true');
    expect(within(ropaItem).getByRole('treeitem', { name: 'Polos' }).getAttribute('aria-level')).toBe('2');
    expect(within(within(ropaItem).getByRole('treeitem', { name: 'Polos' })).getByText('12 productos')).toBeTruthy();
    expect(screen.getByText(/Su categoría padre \(#77\) no está en esta tienda/)).toBeTruthy();
    // the generic table and its pages are not there
    expect(calls.some((c) => c.path === '/ecommerces-categories' && c.method === 'GET')).toBe(false);

    await user.click(within(ropaItem).getByRole('button', { name: 'Plegar Ropa' }));
    expect(ropaItem.getAttribute('aria-expanded')).toBe('false');
    expect(within(peru).queryByRole('treeitem', { name: 'Polos' })).toBeNull();

    await user.click(within(ropaItem).getByRole('button', { name: 'Agregar subcategoría a Ropa' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: /padre/ })).toHaveProperty('value', '21');
    await user.type(within(dialog).getByRole('textbox', { name: /^Nombre/ }), 'Casacas');
    await user.type(within(dialog).getByRole('textbox', { name: /^Slug/ }), 'casacas');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Casacas', slug: 'casacas', parent: 21, country: 'PE' }));
  });

  it('says when there are no categories, and when none matches the search', async () => {
    const user = userEvent.setup();
    serve([]);
    const first = renderApp(<ResourceListPage config={categoriesScreen} />, { route: '/ecommerce/categorias' });
    expect((await screen.findByTestId('empty-state', {}, { timeout: 10_000 })).textContent).toContain('Aún no hay categorías de e-commerce');
    first.unmount();
    vi.restoreAllMocks();
    serve(categories);
    renderApp(<ResourceListPage config={categoriesScreen} />, { route: '/ecommerce/categorias?q=zzz' });
    expect((await screen.findByTestId('no-results', {}, { timeout: 10_000 })).textContent).toBe('Ninguna categoría coincide con la búsqueda');
    await user.clear(screen.getByRole('searchbox', { name: 'Buscar' }));
    expect(await screen.findByRole('tree', { name: 'Categorías: Tienda de Chile' }, { timeout: 10_000 })).toBeTruthy();
  });
});
