import Logout from '@mui/icons-material/Logout';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { authApi } from '../../features/auth/api';
import { useMyAgent, useSetAvailable } from '../../lib/my-agent';
import { clearSession, fullName, useSession } from '../../lib/session';
import { useT } from '../../i18n';

export function UserMenu() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const agent = useMyAgent().data?.agente;
  const setAvailable = useSetAvailable();
  if (!user) return null;
  const name = fullName(user);

  const logout = async () => {
    setAnchor(null);
    try {
      await authApi.logout();
    } catch {
      // The session ends locally whatever the server said.
    }
    clearSession();
    queryClient.clear();
    navigate('/login', { replace: true });
  };

  return (
    <>
      <Button
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={t('layout.userMenu')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'user-menu' : undefined}
        sx={{ gap: 1, pl: 1, pr: 1.5, borderRadius: 8 }}
      >
        <Badge
          overlap="circular"
          variant="dot"
          invisible={!agent}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          // an agent's dot: green available, grey away (decision 0025)
          sx={{ '& .MuiBadge-dot': { bgcolor: agent?.available ? 'success.main' : 'grey.500', border: 2, borderColor: 'primary.main', width: 12, height: 12, borderRadius: 6 } }}
        >
          <Avatar sx={{ width: 32, height: 32, bgcolor: 'secondary.main', fontSize: '0.875rem' }}>
            {`${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase()}
          </Avatar>
        </Badge>
        <Box component="span" sx={{ display: { xs: 'none', md: 'inline' } }} data-testid="user-menu-name">
          {name}
        </Box>
      </Button>
      <Menu
        id="user-menu"
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ px: 2, py: 1, minWidth: 220 }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {user.email}
          </Typography>
        </Box>
        <Divider />
        {agent && (
          <MenuItem
            onClick={() => setAvailable.mutate(!agent.available)}
            disabled={setAvailable.isPending}
            data-testid="availability"
            aria-label={agent.available ? t('layout.availableHint') : t('layout.awayHint')}
          >
            <ListItemText primary={agent.available ? t('layout.available') : t('layout.away')} secondary={agent.available ? t('layout.availableHint') : t('layout.awayHint')} />
            <Switch edge="end" size="small" checked={agent.available} tabIndex={-1} slotProps={{ input: { 'aria-hidden': true } }} />
          </MenuItem>
        )}
        {agent && <Divider />}
        <MenuItem onClick={logout}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {t('layout.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
