import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

/**
 * The buttons under an inline settings form (a card's «Editar» opened in place): the submit, then
 * «Cancelar» closing the form without saving. `disabled` while the save is under way (or the form
 * cannot be sent yet).
 */
export function SaveCancel({ label = 'Guardar', disabled, onCancel }: { label?: string; disabled?: boolean; onCancel: () => void }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button type="submit" variant="contained" size="small" disabled={disabled}>
        {label}
      </Button>
      <Button size="small" onClick={onCancel}>
        Cancelar
      </Button>
    </Box>
  );
}
