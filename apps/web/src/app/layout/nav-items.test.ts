import { describe, expect, it } from 'vitest';
import { activePath, filterNavItems, groupNavItems, navItems } from './nav-items';

describe('nav items', () => {
  it('groups the drawer in SPEC §2 order', () => {
    expect(groupNavItems(navItems).map((g) => g.group)).toEqual([
      'organization',
      'integrations',
      'catalog',
      'marketplaces',
      'ecommerce',
      'metrics',
      'leads',
      'facebook',
      'messaging',
      'system',
    ]);
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
