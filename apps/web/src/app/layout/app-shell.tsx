import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { Suspense, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation } from 'react-router';
import { BrandMark } from '../../components/ui/brand-mark';
import { FullPageSpinner } from '../../components/ui/full-page-spinner';
import { useSession } from '../../lib/session';
import { CompanySwitcher } from './company-switcher';
import { groupNavItems, navItems } from './nav-items';
import { UserMenu } from './user-menu';
import { useT } from '../../i18n';

export const DRAWER_WIDTH = 256;

function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const { pathname } = useLocation();
  return (
    <Box component="nav" aria-label={t('nav.menu')} sx={{ py: 1 }}>
      {groupNavItems(navItems).map(({ group, items }) => (
        <List
          key={group}
          dense
          subheader={
            <ListSubheader
              component="div"
              disableSticky
              sx={{ lineHeight: '32px', fontSize: '0.72rem', fontWeight: 700, letterSpacing: '0.08em', textTransform: 'uppercase' }}
            >
              {t(group)}
            </ListSubheader>
          }
        >
          {items.map(({ label, path, icon: Icon }) => {
            const selected = pathname === path || pathname.startsWith(`${path}/`);
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
                <ListItemText primary={t(label)} slotProps={{ primary: { sx: { fontWeight: selected ? 600 : 500 } } }} />
              </ListItemButton>
            );
          })}
        </List>
      ))}
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
  const [mobileOpen, setMobileOpen] = useState(false);
  const signedIn = !!user;

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
