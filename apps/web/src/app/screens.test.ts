import { resources } from '@mostrador/contract';
import { describe, expect, it } from 'vitest';
import { isConfigEntry, navGroups, screens } from './screens';

/** The list screens the brief asks for, by route, with the API key each lists. */
const expected: Record<string, string> = {
  '/usuarios': 'users',
  '/productos': 'products',
  '/categorias': 'categories',
  '/marcas': 'brands',
  '/ecommerce/productos': 'ecommerces',
  '/ecommerce/productos-variaciones': 'ecommerces-variations',
  '/ecommerce/categorias': 'ecommerces-categories',
  '/ecommerce/etiquetas': 'ecommerces-tags',
  '/ecommerce/atributos': 'ecommerces-attributes',
  '/ecommerce/contactos': 'ecommerces-contacts',
  '/ecommerce/ordenes': 'ecommerces-orders',
  '/etiquetas-facebook': 'facebook-labels',
  '/etiquetas-mostrador': 'mostrador-labels',
  '/comentarios-sin-respuesta': 'comments-without-responses',
  '/mailchimp': 'mailchimps',
  '/mailchimp/contactos': 'mailchimp-contacts',
  '/mailchimp/etiquetas': 'mailchimp-tags',
  '/retail-rocket/etiquetas': 'retail-rocket-tags',
  '/gravity-forms': 'gravity-forms',
  '/marketing/campaigns': 'marketing-campaigns',
  '/marketing/segmentos': 'marketing-segments',
  '/marketing/historial-plantillas': 'template-messages-logs',
  '/marketing/historial_mensajes_masivos': 'massive-messages-logs',
  '/seguimiento-gpt': 'llm-tracker',
  '/imagina_mensajes_de_plantilla': 'imagina_template_messages',
  '/telefonos': 'telefonos',
  '/telegram/grupos': 'telegram-groups',
  '/telegram/rutinas': 'telegram-routines',
  '/woocommerce': 'woocommerces',
  '/catalogs': 'catalogs',
  '/ordenes': 'orders',
  '/marketplaces/fuentes': 'marketplace-sources',
  '/marketplaces/productos': 'marketplace-products',
  '/marketplaces/productos-variaciones': 'marketplace-variations',
  '/marketplaces/ordenes': 'marketplace-orders',
  '/facebook-audiencias': 'facebook-audiences',
  '/bots': 'bots',
  '/grupos': 'groups',
  '/companias': 'companies',
  '/equipo-de-ventas': 'equipos-de-ventas',
  '/locaciones': 'locaciones',
  '/agentes': 'agentes',
  '/vendedores': 'vendors',
  '/colores': 'colors',
  '/contactos': 'contactos',
};

/** Declared resources whose screens are not generic lists (leads, chats, comments): they come with their modules. */
const withoutListScreen = ['leads', 'clean-leads', 'chats', 'comments-facebook'];

describe('screen registry', () => {
  it('has every list screen of the brief at its Spanish route, listing its API key', () => {
    const byPath = new Map(screens.filter(isConfigEntry).map((s) => [s.path, s.resource]));
    for (const [path, key] of Object.entries(expected)) {
      if (!(key in resources) && !['users', 'companies'].includes(key)) continue; // not declared yet
      expect(byPath.get(path), path).toBe(key);
    }
  });

  it('routes /facebook to the bots screen, and has profile, settings and diagnostics', () => {
    expect(screens.find((s) => s.path === '/bots')?.aliases).toContain('/facebook');
    for (const path of ['/perfil', '/configuracion', '/test']) expect(screens.some((s) => s.path === path)).toBe(true);
  });

  it('gives every declared resource a screen, except those with screens of their own to come', () => {
    const listed = new Set(screens.filter(isConfigEntry).map((s) => s.resource));
    for (const key of Object.keys(resources)) if (!withoutListScreen.includes(key)) expect(listed, key).toContain(key);
  });

  it('hides each screen under its resource\'s permission module', () => {
    for (const entry of screens.filter(isConfigEntry)) {
      const declared = (resources as Record<string, { module: string }>)[entry.resource];
      if (declared) expect(entry.module, entry.path).toBe(declared.module);
    }
  });

  it('has unique paths, known groups and one config per screen that names the same API key', async () => {
    const paths = screens.flatMap((s) => [s.path, ...(s.aliases ?? [])]);
    expect(new Set(paths).size).toBe(paths.length);
    for (const entry of screens) expect(navGroups).toContain(entry.group);
    for (const entry of screens.filter(isConfigEntry)) {
      const { screen } = await entry.load();
      expect(screen.resource.key, entry.path).toBe(entry.resource);
      expect(screen.title && screen.newLabel && screen.editLabel && screen.emptyMessage && screen.noResultsMessage, entry.path).toBeTruthy();
      const fields = Object.keys(screen.resource.fields);
      for (const name of screen.form ?? []) expect(fields, `${entry.path} form`).toContain(name);
      for (const column of screen.columns) {
        const c = typeof column === 'string' ? { field: column } : column;
        if (!('render' in c && c.render)) expect([...fields, 'createdAt', 'updatedAt'], `${entry.path} column`).toContain(c.field);
      }
    }
  });
});
