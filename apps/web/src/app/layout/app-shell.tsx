import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import MenuIcon from '@mui/icons-material/Menu';
import SearchIcon from '@mui/icons-material/Search';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { BrandMark } from '../../components/ui/brand-mark';
import { FullPageSpinner } from '../../components/ui/full-page-spinner';
import { NotificationsBell } from '../../features/notifications/notifications-bell';
import { rememberScreen } from '../../lib/landing';
import { usePermissions } from '../../lib/permissions';
import { useSession } from '../../lib/session';
import { storage } from '../../lib/storage';
import type { NavGroup } from '../screens';
import { CompanySwitcher } from './company-switcher';
import { activePath, filterNavItems, groupLabelKey, groupNavItems, type NavItem, navItems, openByDefault, pinnedNavItems } from './nav-items';
import { UserMenu } from './user-menu';
import { useT } from '../../i18n';

export const DRAWER_WIDTH = 272;

const OPEN_GROUPS_KEY = 'navOpenGroups';

function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const { pathname } = useLocation();
  const { mayList } = usePermissions();
  const [filter, setFilter] = useState('');
  const visible = navItems.filter((item) => !item.module || mayList(item.module));
  const current = activePath(visible, pathname);
  const currentGroup = visible.find((item) => item.path === current)?.group;
  const [open, setOpen] = useState<Set<NavGroup>>(() => {
    const stored = storage.getJSON<NavGroup[]>(OPEN_GROUPS_KEY);
    return new Set(Array.isArray(stored) ? stored : openByDefault);
  });
  // The current screen's group opens by itself.
  useEffect(() => {
    if (currentGroup) setOpen((prev) => (prev.has(currentGroup) ? prev : new Set([...prev, currentGroup])));
  }, [currentGroup]);
  const toggle = (group: NavGroup) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(group)) next.delete(group);
      else next.add(group);
      storage.setJSON(OPEN_GROUPS_KEY, [...next]);
      return next;
    });
  const filtering = filter.trim() !== '';
  const matching = filterNavItems(visible, filter, (group) => t(groupLabelKey(group)));
  const pinned = pinnedNavItems(matching);
  const groups = groupNavItems(matching);
  const itemButton = ({ label: itemLabel, path, icon: Icon }: NavItem) => {
    const selected = path === current;
    return (
      <ListItemButton
        key={path}
        component={RouterLink}
        to={path}
        selected={selected}
        aria-current={selected ? 'page' : undefined}
        onClick={onNavigate}
        sx={{
          mx: 1,
          borderRadius: 2,
          '&.Mui-selected': { bgcolor: 'rgba(40, 21, 108, 0.08)', color: 'primary.main' },
          '&.Mui-selected .MuiListItemIcon-root': { color: 'primary.main' },
        }}
      >
        <ListItemIcon sx={{ minWidth: 36 }}>
          <Icon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={itemLabel} slotProps={{ primary: { sx: { fontWeight: selected ? 600 : 500 } } }} />
      </ListItemButton>
    );
  };

  return (
    <Box component="nav" aria-label={t('nav.menu')} sx={{ pb: 2 }}>
      <Box sx={{ px: 2, pt: 2, pb: 1 }}>
        <TextField
          size="small"
          type="search"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder={t('nav.filter')}
          slotProps={{
            htmlInput: { 'aria-label': t('nav.filter') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {pinned.length > 0 && (
        <List dense disablePadding aria-label={t('nav.pinned')} sx={{ pb: 0.5 }}>
          {pinned.map(itemButton)}
        </List>
      )}
      {groups.length === 0 && pinned.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ px: 3, py: 1 }}>
          {t('nav.noMatches')}
        </Typography>
      )}
      {groups.map(({ group, items }) => {
        const expanded = filtering || open.has(group);
        const label = t(groupLabelKey(group));
        const listId = `nav-group-${group}`;
        return (
          <Box key={group}>
            <ListItemButton
              onClick={() => toggle(group)}
              aria-expanded={expanded}
              aria-controls={listId}
              disabled={filtering}
              sx={{ mx: 1, borderRadius: 2, py: 0.5, '&.Mui-disabled': { opacity: 1 } }}
            >
              <ListItemText
                primary={label}
                slotProps={{
                  primary: {
                    sx: {
                      fontSize: '0.7rem',
                      fontWeight: 700,
                      letterSpacing: '0.05em',
                      whiteSpace: 'nowrap',
                      textTransform: 'uppercase',
                      color: group === currentGroup ? 'primary.main' : 'text.secondary',
                    },
                  },
                }}
              />
              {!filtering && (expanded ? <ExpandLess fontSize="small" color="action" /> : <ExpandMore fontSize="small" color="action" />)}
            </ListItemButton>
            <Collapse in={expanded} timeout="auto" unmountOnExit>
              <List dense disablePadding id={listId} aria-label={label} sx={{ pb: 0.5 }}>
                {items.map(itemButton)}
              </List>
            </Collapse>
          </Box>
        );
      })}
    </Box>
  );
}

/**
 * The frame of the app: app bar with product name, company switcher and user menu, and
 * the navigation drawer. Public pages inside it (the diagnostics page) get the bar only
 * when nobody is signed in.
 */
export function AppShell() {
  const t = useT();
  const { user } = useSession();
  const { pathname, search } = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const signedIn = !!user;
  // the next sign-in lands here (lib/landing.ts)
  const userId = user?._id;
  useEffect(() => {
    if (userId) rememberScreen(userId, `${pathname}${search}`);
  }, [userId, pathname, search]);

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={(theme) => ({ zIndex: theme.zIndex.drawer + 1 })}>
        <Toolbar sx={{ gap: { xs: 1, sm: 2 } }}>
          {signedIn && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label={t('nav.openMenu')}
              onClick={() => setMobileOpen(true)}
              sx={{ display: { md: 'none' } }}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Box
            component={RouterLink}
            to={signedIn ? '/perfil' : '/login'}
            sx={{ display: 'flex', alignItems: 'center', gap: 1.25, color: 'inherit', textDecoration: 'none' }}
          >
            <BrandMark size={30} inverted />
            <Typography component="span" sx={{ fontWeight: 700, fontSize: '1.2rem', display: { xs: 'none', sm: 'inline' } }}>
              {t('app.name')}
            </Typography>
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          {signedIn ? (
            <>
              <CompanySwitcher />
              <NotificationsBell />
              <UserMenu />
            </>
          ) : (
            <Button component={RouterLink} to="/login" color="inherit" variant="outlined">
              {t('layout.signIn')}
            </Button>
          )}
        </Toolbar>
      </AppBar>
      {signedIn && (
        <Box sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
          <Drawer
            variant="temporary"
            open={mobileOpen}
            onClose={() => setMobileOpen(false)}
            sx={{ display: { xs: 'block', md: 'none' }, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
          >
            <Toolbar />
            <NavList onNavigate={() => setMobileOpen(false)} />
          </Drawer>
          <Drawer
            variant="permanent"
            open
            sx={{
              display: { xs: 'none', md: 'block' },
              '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', borderRightColor: '#E4E6EF' },
            }}
          >
            <Toolbar />
            <NavList />
          </Drawer>
        </Box>
      )}
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3, md: 4 } }}>
        <Toolbar />
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}

export default AppShell;
