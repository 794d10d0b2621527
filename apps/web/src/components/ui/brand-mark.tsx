import Box from '@mui/material/Box';

/** The product's square "M" mark. */
export function BrandMark({ size = 32, inverted = false }: { size?: number; inverted?: boolean }) {
  return (
    <Box
      aria-hidden
      sx={{
        width: size,
        height: size,
        borderRadius: size / 4 + 'px',
        display: 'grid',
        placeItems: 'center',
        fontWeight: 800,
        fontSize: size * 0.55,
        lineHeight: 1,
        bgcolor: inverted ? '#fff' : 'primary.main',
        color: inverted ? 'primary.main' : '#fff',
        flexShrink: 0,
      }}
    >
      M
    </Box>
  );
}
