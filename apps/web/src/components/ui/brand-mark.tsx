import Box from '@mui/material/Box';

/** The product's square "M" mark (or another letter: a company's initial on its customers' pages). */
export function BrandMark({ size = 32, inverted = false, letter = 'M' }: { size?: number; inverted?: boolean; letter?: string }) {
  return (
    <Box
      aria-hidden
      sx={{
        width: size,
        height: size,
        borderRadius: `${size / 4}px`,
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
      {letter}
    </Box>
  );
}
