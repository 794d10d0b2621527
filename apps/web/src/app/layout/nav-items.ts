import type { Module } from '@mostrador/contract';
import type { SvgIconComponent } from '@mui/icons-material';
import type { MessageKey } from '../../i18n';
import { type NavGroup, navGroups, screens } from '../screens';
import { fold } from '../../lib/text';

/**
 * The navigation drawer, generated from the screen registry (app/screens.ts) and
 * grouped as SPEC §2 groups the routes. A new screen adds its line there.
 */
export interface NavItem {
  group: NavGroup;
  label: string;
  path: string;
  icon: SvgIconComponent;
  module?: Module;
}

export const navItems: NavItem[] = screens.map(({ group, label, path, icon, module }) => ({ group, label, path, icon, module }));

export const groupLabelKey = (group: NavGroup): MessageKey => `nav.groups.${group}`;

/**
 * The drawer's groups by daily use (decision 0026): answering and following people first
 * (messaging, leads, comments, contacts), the catalogue next, the setup last. Every group of
 * the registry appears once.
 */
export const menuGroups: NavGroup[] = ['messaging', 'leads', 'facebook', 'metrics', 'catalog', 'ecommerce', 'marketplaces', 'integrations', 'organization', 'system'];
if (menuGroups.length !== navGroups.length || navGroups.some((g) => !menuGroups.includes(g))) throw new Error('menuGroups must list every nav group');

/** The groups open on a first visit: the lead buckets, the organisation and the system pages (the inbox is pinned above them). */
export const openByDefault: NavGroup[] = ['leads', 'organization', 'system'];

/** Screens above the groups, always in sight: the inbox, the most used screen. */
export const pinnedPaths: readonly string[] = ['/chat'];

/** The pinned items the role may use, in `pinnedPaths` order. */
export function pinnedNavItems(items: NavItem[]): NavItem[] {
  return pinnedPaths.flatMap((path) => items.filter((item) => item.path === path));
}

/** Items grouped in the menu's order (`menuGroups`), the pinned ones left out. */
export function groupNavItems(items: NavItem[]): Array<{ group: NavGroup; items: NavItem[] }> {
  const rest = items.filter((item) => !pinnedPaths.includes(item.path));
  return menuGroups.map((group) => ({ group, items: rest.filter((item) => item.group === group) })).filter((g) => g.items.length > 0);
}


/** Items whose label, group or path contains the typed text. */
export function filterNavItems(items: NavItem[], text: string, groupLabel: (group: NavGroup) => string): NavItem[] {
  const needle = fold(text.trim());
  if (!needle) return items;
  return items.filter((item) => fold(`${item.label} ${groupLabel(item.group)} ${item.path}`).includes(needle));
}

/** The item of the current page: the longest path that is the pathname or a parent of it. */
export function activePath(items: NavItem[], pathname: string): string | undefined {
  return items
    .filter((item) => pathname === item.path || pathname.startsWith(`${item.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;
}
