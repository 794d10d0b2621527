import { describe, expect, it } from 'vitest';
import { defaultPermissions } from '@mostrador/contract';
import { activePath, filterNavItems, groupNavItems, navItems, pinnedNavItems } from './nav-items';

describe('nav items', () => {
  it('pins the inbox and groups the rest by daily use: the work first, the setup last', () => {
    expect(pinnedNavItems(navItems).map((i) => i.path)).toEqual(['/chat']);
    const groups = groupNavItems(navItems);
    expect(groups.map((g) => g.group)).toEqual([
      'messaging',
      'leads',
      'facebook',
      'metrics',
      'catalog',
      'ecommerce',
      'marketplaces',
      'integrations',
      'organization',
      'system',
    ]);
    expect(groups.flatMap((g) => g.items).map((i) => i.path)).not.toContain('/chat');
    // every screen once: pinned or in its group
    expect(pinnedNavItems(navItems).length + groups.flatMap((g) => g.items).length).toBe(navItems.length);
  });

  it('shows an agent only what the default agent role may use', () => {
    const agent = new Set(defaultPermissions().filter((p) => p.role === 'agent' && p.action === 'list').map((p) => p.module));
    const visible = navItems.filter((item) => !item.module || agent.has(item.module)).map((i) => i.path);
    expect(visible).toContain('/chat');
    expect(visible).toContain('/lead/sin-asignar');
    for (const hidden of ['/marketing/campaigns', '/configuracion', '/usuarios', '/usuarios/roles', '/whatsapp']) expect(visible).not.toContain(hidden);
  });

  it('filters by label without accents or case, and by group name', () => {
    const label = (g: string) => (g === 'ecommerce' ? 'E-commerce' : g);
    expect(filterNavItems(navItems, 'companias', label).map((i) => i.path)).toEqual(['/companias']);
    expect(filterNavItems(navItems, 'E-COMMERCE', label).every((i) => i.group === 'ecommerce')).toBe(true);
    expect(filterNavItems(navItems, '', label)).toHaveLength(navItems.length);
  });

  it('marks the deepest matching entry as the current page', () => {
    expect(activePath(navItems, '/mailchimp/contactos')).toBe('/mailchimp/contactos');
    expect(activePath(navItems, '/mailchimp')).toBe('/mailchimp');
    expect(activePath(navItems, '/grupos/123')).toBe('/grupos');
    expect(activePath(navItems, '/nada')).toBeUndefined();
  });
});
