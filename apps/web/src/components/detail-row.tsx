import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** One label and its value in a record's detail (an order's side sheet, a clean lead); a dash when empty. */
export function DetailRow({ label, children, labelWidth = 120 }: { label: string; children?: ReactNode; labelWidth?: number }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: `${labelWidth}px minmax(0, 1fr)`, gap: 1, py: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Typography>
    </Box>
  );
}
