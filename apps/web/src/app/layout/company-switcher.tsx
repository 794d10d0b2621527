import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { membershipsOf, useSession } from '../../lib/session';
import { useSwitchCompany } from '../../lib/use-switch-company';
import { useT } from '../../i18n';

/** Lists the user's companies; switching stores the id and refetches every query. */
export function CompanySwitcher() {
  const t = useT();
  const { user, companyId } = useSession();
  const switchCompany = useSwitchCompany();
  const memberships = membershipsOf(user);
  if (memberships.length === 0) return null;
  const value = memberships.some((m) => m.company._id === companyId) ? companyId : '';
  return (
    <TextField
      select
      size="small"
      label={t('layout.company')}
      value={value ?? ''}
      onChange={(event) => switchCompany(event.target.value)}
      fullWidth={false}
      sx={{
        minWidth: { xs: 140, sm: 220 },
        '& .MuiInputBase-root': { color: '#fff', bgcolor: 'rgba(255,255,255,0.08)' },
        '& .MuiInputLabel-root, & .MuiInputLabel-root.Mui-focused': { color: 'rgba(255,255,255,0.8)' },
        '& .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,0.35)' },
        '& .MuiInputBase-root:hover .MuiOutlinedInput-notchedOutline': { borderColor: 'rgba(255,255,255,0.7)' },
        '& .MuiInputBase-root.Mui-focused .MuiOutlinedInput-notchedOutline': { borderColor: '#fff' },
        '& .MuiSelect-icon': { color: '#fff' },
      }}
    >
      {memberships.map((m) => (
        <MenuItem key={m.company._id} value={m.company._id}>
          {m.company.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
