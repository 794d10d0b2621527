import Person from '@mui/icons-material/Person';
import MonitorHeart from '@mui/icons-material/MonitorHeart';
import type { SvgIconComponent } from '@mui/icons-material';
import type { MessageKey } from '../../i18n';

/**
 * The navigation drawer, grouped as SPEC §2 groups the routes. A new screen adds one line.
 * `group` and `label` are keys of the UI dictionary (i18n/es.ts).
 */
export interface NavItem {
  group: MessageKey;
  label: MessageKey;
  path: string;
  icon: SvgIconComponent;
}

export const navItems: NavItem[] = [
  { group: 'nav.groups.organization', label: 'nav.profile', path: '/perfil', icon: Person },
  { group: 'nav.groups.system', label: 'nav.diagnostics', path: '/test', icon: MonitorHeart },
];

/** Items grouped in first-seen order. */
export function groupNavItems(items: NavItem[]): Array<{ group: MessageKey; items: NavItem[] }> {
  const groups = new Map<MessageKey, NavItem[]>();
  for (const item of items) groups.set(item.group, [...(groups.get(item.group) ?? []), item]);
  return [...groups].map(([group, grouped]) => ({ group, items: grouped }));
}
