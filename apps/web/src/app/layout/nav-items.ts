import type { Module } from '@mostrador/contract';
import type { SvgIconComponent } from '@mui/icons-material';
import type { MessageKey } from '../../i18n';
import { type NavGroup, navGroups, screens } from '../../resources/registry';
import { fold } from '../../lib/text';

/**
 * The navigation drawer, generated from the screen registry (resources/registry.ts) and
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

/** Items grouped in the registry's group order. */
export function groupNavItems(items: NavItem[]): Array<{ group: NavGroup; items: NavItem[] }> {
  return navGroups.map((group) => ({ group, items: items.filter((item) => item.group === group) })).filter((g) => g.items.length > 0);
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
