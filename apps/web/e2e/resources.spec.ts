import type { Page } from '@playwright/test';
import { accounts, expect, signIn, test } from './helpers';

/** Every list screen (SPEC §2 and the brief), with its title. Demo Perú holds seeded records for each. */
const listScreens: Array<[path: string, title: string]> = [
  ['/usuarios', 'Usuarios'],
  ['/grupos', 'Grupos'],
  ['/companias', 'Compañías'],
  ['/equipo-de-ventas', 'Equipos de ventas'],
  ['/locaciones', 'Locaciones'],
  ['/agentes', 'Agentes'],
  ['/vendedores', 'Vendedores'],
  ['/gravity-forms', 'Gravity Forms'],
  ['/telefonos', 'Teléfonos'],
  ['/bots', 'Bots'],
  ['/facebook', 'Bots'],
  ['/telegram/grupos', 'Grupos de Telegram'],
  ['/telegram/rutinas', 'Rutinas de Telegram'],
  ['/mailchimp', 'Mailchimp'],
  ['/mailchimp/contactos', 'Contactos de Mailchimp'],
  ['/mailchimp/etiquetas', 'Etiquetas de Mailchimp'],
  ['/retail-rocket/etiquetas', 'Etiquetas de RetailRocket'],
  ['/woocommerce', 'WooCommerce'],
  ['/catalogs', 'Catálogos'],
  ['/productos', 'Productos'],
  ['/marcas', 'Marcas'],
  ['/categorias', 'Categorías'],
  ['/colores', 'Colores'],
  ['/marketplaces/fuentes', 'Fuentes de marketplace'],
  ['/ecommerce/productos', 'Productos de e-commerce'],
  ['/ecommerce/productos-variaciones', 'Variaciones de productos'],
  ['/ecommerce/categorias', 'Categorías de e-commerce'],
  ['/ecommerce/etiquetas', 'Etiquetas de e-commerce'],
  ['/ecommerce/atributos', 'Atributos'],
  ['/ecommerce/contactos', 'Contactos de e-commerce'],
  ['/ecommerce/ordenes', 'Órdenes de e-commerce'],
  ['/seguimiento-gpt', 'Seguimiento GPT'],
  ['/etiquetas-facebook', 'Etiquetas de Facebook'],
  ['/etiquetas-mostrador', 'Etiquetas Mostrador'],
  ['/comentarios-sin-respuesta', 'Comentarios sin respuesta'],
  ['/comment-to-msn', 'Comentarios a Messenger'],
  ['/ads-messenger', 'Comentarios a Messenger'],
  ['/facebook-audiencias', 'Audiencias de Facebook'],
  ['/imagina_mensajes_de_plantilla', 'Plantillas Imagina'],
  ['/marketing/campaigns', 'Campañas'],
  ['/marketing/segmentos', 'Segmentos'],
  ['/marketing/historial-plantillas', 'Historial de plantillas'],
  ['/marketing/historial_mensajes_masivos', 'Historial de mensajes masivos'],
];

/** List screens that show their records as a tree. */
const treeScreens = new Set(['/ecommerce/categorias']);

const snackbar = (page: Page) => page.getByTestId('success-snackbar');

async function openList(page: Page, path: string, title: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: title });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  return table;
}

test('every list screen shows its title and the demo records of Demo Perú', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, accounts.demoAdmin);
  for (const [path, title] of listScreens) {
    await page.goto(path);
    await expect.soft(page.getByRole('heading', { name: title, level: 1 }), path).toBeVisible();
    if (treeScreens.has(path)) {
      // shown as a tree per store, not as a table
      await expect.soft(page.getByRole('tree').first().getByRole('treeitem').first(), path).toBeVisible();
    } else {
      const table = page.getByRole('table', { name: title });
      await expect.soft(table.locator('tbody tr').first(), path).toBeVisible();
      await expect.soft(page.getByTestId('total-docs'), path).toHaveText(/^\d+ registros?$/);
      // the first row shows its record (its first cell may be a selection box)
      await expect.soft(table.getByRole('row').nth(1), path).not.toHaveText('');
    }
    await expect.soft(page.getByTestId('empty-state'), path).toHaveCount(0);
    await expect.soft(page.getByTestId('load-error'), path).toHaveCount(0);
  }
});

test('the drawer lists every screen in its SPEC §2 group and filters them', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  for (const group of ['Teléfonos e integraciones', 'Catálogo y órdenes', 'Marketplaces', 'E-commerce', 'Métricas y contactos', 'Facebook y comentarios', 'Mensajería y marketing']) {
    await nav.getByRole('button', { name: group }).click();
  }
  for (const label of ['Usuarios', 'Compañías', 'Configuración', 'Teléfonos', 'WooCommerce', 'Marcas', 'Colores', 'Fuentes', 'Seguimiento GPT', 'Etiquetas Mostrador', 'Campañas']) {
    await expect(nav.getByRole('link', { name: label, exact: true })).toBeVisible();
  }
  // «Órdenes» is a screen of three groups, each with its own orders
  for (const [group, href] of [['Catálogo y órdenes', '/ordenes'], ['E-commerce', '/ecommerce/ordenes'], ['Marketplaces', '/marketplaces/ordenes']]) {
    await expect(nav.getByRole('list', { name: group }).getByRole('link', { name: 'Órdenes', exact: true })).toHaveAttribute('href', href);
  }
  await nav.getByRole('searchbox', { name: 'Buscar pantalla' }).fill('mailchimp');
  await expect(nav.getByRole('link')).toHaveCount(3);
  await nav.getByRole('link', { name: 'Contactos de Mailchimp' }).click();
  await expect(page).toHaveURL(/\/mailchimp\/contactos$/);
  await expect(page.getByRole('heading', { name: 'Contactos de Mailchimp', level: 1 })).toBeVisible();
});

/** Creates, edits and deletes one record through the UI, seeing each snackbar. */
async function crud(page: Page, o: { path: string; title: string; newLabel: string; editLabel: string; fill: (dialog: ReturnType<Page['getByRole']>) => Promise<void>; name: string }) {
  const table = await openList(page, o.path, o.title);
  await page.getByRole('button', { name: o.newLabel }).click();
  const create = page.getByRole('dialog', { name: o.newLabel });
  await create.getByRole('button', { name: 'Guardar' }).click();
  await expect(create.getByText('Este campo es requerido').first()).toBeVisible();
  await o.fill(create);
  await create.getByRole('button', { name: 'Guardar' }).click();
  await expect(snackbar(page)).toHaveText('Registro guardado con éxito');
  await expect(create).toBeHidden();

  await page.getByRole('searchbox', { name: 'Buscar', exact: true }).fill(o.name);
  await expect(table.getByRole('row', { name: new RegExp(o.name) })).toHaveCount(1);
  await table.getByRole('button', { name: `Editar: ${o.name}` }).click();
  const edit = page.getByRole('dialog', { name: o.editLabel });
  await expect(edit.getByRole('textbox', { name: 'Nombre' })).toHaveValue(o.name);
  await edit.getByRole('textbox', { name: 'Nombre' }).fill(`${o.name} editado`);
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(snackbar(page)).toHaveText('Registro actualizado con éxito');
  await expect(table.getByRole('cell', { name: `${o.name} editado`, exact: true })).toBeVisible();

  await table.getByRole('button', { name: `Eliminar: ${o.name} editado` }).click();
  const confirm = page.getByRole('dialog', { name: 'Advertencia' });
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(table.getByRole('cell', { name: `${o.name} editado`, exact: true })).toBeVisible();
  await table.getByRole('button', { name: `Eliminar: ${o.name} editado` }).click();
  await confirm.getByRole('button', { name: 'Aceptar' }).click();
  await expect(snackbar(page)).toHaveText('Registro eliminado con éxito');
  await expect(page.getByTestId('no-results')).toBeVisible();
}

test('brands: create, edit and delete through the UI', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await crud(page, {
    path: '/marcas',
    title: 'Marcas',
    newLabel: 'Nueva marca',
    editLabel: 'Editar marca',
    name: 'Pilsen E2E',
    fill: async (dialog) => {
      await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Pilsen E2E');
      await dialog.getByRole('textbox', { name: 'Descripción' }).fill('Cervezas');
    },
  });
});

test('mostrador labels: create, edit and delete through the UI', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await crud(page, {
    path: '/etiquetas-mostrador',
    title: 'Etiquetas Mostrador',
    newLabel: 'Nueva etiqueta Mostrador',
    editLabel: 'Editar etiqueta Mostrador',
    name: 'Cliente VIP E2E',
    fill: async (dialog) => {
      await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Cliente VIP E2E');
      await dialog.getByRole('textbox', { name: 'Color', exact: true }).fill('#ff8800');
    },
  });
});

test('agents: create, edit and delete through the UI, the phone normalised', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await crud(page, {
    path: '/agentes',
    title: 'Agentes',
    newLabel: 'Nuevo agente',
    editLabel: 'Editar agente',
    name: 'Julia Paredes E2E',
    fill: async (dialog) => {
      await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Julia Paredes E2E');
      const phone = dialog.getByRole('textbox', { name: 'Teléfono' });
      await phone.fill('987 111 222');
      await phone.blur();
      await expect(phone).toHaveValue('51987111222');
      await dialog.getByRole('combobox', { name: 'Equipo de ventas' }).click();
      await page.getByRole('option').first().click();
    },
  });
});

test('a repeated name: the server\'s message shows under the field', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await openList(page, '/marcas', 'Marcas');
  await page.getByRole('button', { name: 'Nueva marca' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nueva marca' });
  await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Gloria');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByTestId('error-snackbar')).toBeVisible();
  await expect(dialog).toBeVisible();
  // the 409's detail sits under the field it names
  await expect(dialog.getByText('Este valor ya está en uso')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Nombre' })).toHaveAttribute('aria-invalid', 'true');
});

test('an empty company shows the empty-state message', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.getByRole('combobox', { name: 'Compañía' }).click();
  await page.getByRole('option', { name: 'Demo Chile' }).click();
  await expect(page.getByRole('combobox', { name: 'Compañía' })).toHaveText('Demo Chile');
  await page.goto('/marcas');
  await expect(page.getByTestId('empty-state')).toHaveText('Aún no hay marcas registradas');
  await page.goto('/agentes');
  await expect(page.getByTestId('empty-state')).toHaveText('Aún no hay agentes registrados');
});

test('a search that finds nothing shows the no-results message', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await openList(page, '/colores', 'Colores');
  await page.getByRole('searchbox', { name: 'Buscar', exact: true }).fill('no existe ningún color así');
  await expect(page.getByTestId('no-results')).toHaveText('Ningún color coincide con la búsqueda');
  await expect(page).toHaveURL(/q=/);
});

test('variations have no New and no Edit; vendors may only be deleted', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const variations = await openList(page, '/ecommerce/productos-variaciones', 'Variaciones de productos');
  await expect(page.getByRole('button', { name: 'Nueva variación' })).toHaveCount(0);
  await expect(variations.getByRole('button', { name: /^Editar/ })).toHaveCount(0);
  await expect(variations.getByRole('button', { name: /^Eliminar/ }).first()).toBeVisible();
  const vendors = await openList(page, '/vendedores', 'Vendedores');
  await expect(page.getByRole('button', { name: 'Nuevo vendedor' })).toHaveCount(0);
  await expect(vendors.getByRole('button', { name: /^Editar/ })).toHaveCount(0);
  await expect(vendors.getByRole('button', { name: /^Eliminar/ }).first()).toBeVisible();
});

test('an agent sees lists without New, Edit or Delete, and no Users in the drawer', async ({ page }) => {
  await signIn(page, accounts.demoAgent);
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(nav.getByRole('link', { name: 'Perfil' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Usuarios' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Compañías' })).toHaveCount(0);
  const table = await openList(page, '/marcas', 'Marcas');
  await expect(page.getByRole('button', { name: 'Nueva marca' })).toHaveCount(0);
  await expect(table.getByRole('button', { name: /^(Editar|Eliminar)/ })).toHaveCount(0);
});

test('users: the detail page edits a user', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const table = await openList(page, '/usuarios', 'Usuarios');
  await expect(table.getByRole('row', { name: /Carlos Agente/ })).toContainText('Agente');
  await table.getByRole('button', { name: 'Editar: Carlos Agente' }).click();
  await expect(page).toHaveURL(/\/usuarios\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Editar usuario', level: 1 })).toBeVisible();
  const first = page.getByRole('textbox', { name: 'Nombres' });
  await expect(first).toHaveValue('Carlos');
  await first.fill('Carlos Alberto');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(snackbar(page)).toHaveText('Registro actualizado con éxito');
  await page.getByRole('link', { name: 'Volver' }).click();
  await expect(page.getByRole('table', { name: 'Usuarios' }).getByRole('row', { name: /Carlos Alberto Agente/ })).toBeVisible();
});

test('groups: choose the members of a group and save them', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  const table = await openList(page, '/grupos', 'Grupos');
  await table.getByRole('link', { name: /^Miembros:/ }).first().click();
  await expect(page).toHaveURL(/\/grupos\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: /^Miembros de / })).toBeVisible();
  const members = page.getByRole('list', { name: 'Usuarios de la compañía' });
  const carlos = members.getByRole('checkbox', { name: /Carlos/ });
  const was = await carlos.isChecked();
  await members.getByRole('button', { name: /Carlos/ }).click();
  await expect(carlos).toBeChecked({ checked: !was });
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(snackbar(page)).toHaveText('Usuarios actualizados con éxito');
  await page.reload();
  await expect(page.getByRole('list', { name: 'Usuarios de la compañía' }).getByRole('checkbox', { name: /Carlos/ })).toBeChecked({ checked: !was });
});

test('settings: the company settings are saved and the items per page preference applies to lists', async ({ page }) => {
  await signIn(page, accounts.demoAdmin);
  await page.goto('/configuracion');
  await expect(page.getByRole('heading', { name: 'Configuración', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Moneda' }).click();
  await page.getByRole('option', { name: 'Sol peruano (PEN)' }).click();
  // the company's own card (the page's other cards — the CSAT survey, the Conversions API — save their own)
  await page.getByRole('region', { name: 'Compañía' }).getByRole('button', { name: 'Guardar' }).click();
  await expect(snackbar(page)).toHaveText('Registro actualizado con éxito');

  await page.getByRole('combobox', { name: 'Registros por página' }).click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await page.goto('/marketing/historial-plantillas');
  const table = page.getByRole('table', { name: 'Historial de plantillas' });
  await expect(table.locator('tbody tr')).toHaveCount(10);
  await expect(page.getByRole('navigation', { name: 'Paginación' }).getByRole('button', { name: 'Página 2' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Paginación' }).getByRole('button', { name: 'Página 2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^11–20 de \d+$/)).toBeVisible();
});
