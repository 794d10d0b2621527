import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { ChipsField } from './chips-field';

const days: Record<string, string> = { lun: 'Lunes', mar: 'Martes', mie: 'Miércoles' };

function DaysDialog({ onClose, onSubmit }: { onClose: () => void; onSubmit: (value: string[]) => void }) {
  const [value, setValue] = useState<string[]>([]);
  return (
    <Dialog open onClose={onClose} aria-labelledby="days-title">
      <DialogTitle id="days-title">Horario</DialogTitle>
      <DialogContent>
        <ChipsField id="days" name="days" label="Días" value={value} onChange={setValue} options={Object.keys(days)} getLabel={(d) => days[d] ?? d} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onSubmit(value)}>Guardar</Button>
      </DialogActions>
    </Dialog>
  );
}

describe('ChipsField with fixed choices', () => {
  it('keeps the options open to pick several, and Escape closes them without closing the dialog', async () => {
    const onClose = vi.fn();
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    renderApp(<DaysDialog onClose={onClose} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog', { name: 'Horario' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Días' }));
    await user.click(await screen.findByRole('option', { name: 'Lunes' }));
    await user.click(screen.getByRole('option', { name: 'Miércoles' }));
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(onSubmit).toHaveBeenCalledWith(['lun', 'mie']);
  });
});
