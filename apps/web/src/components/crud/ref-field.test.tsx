import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../lib/session';
import { fakeApi, pageOf } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { RefField } from './ref-field';

const labels = [
  { _id: 'label-1', name: 'Cliente frecuente' },
  { _id: 'label-2', name: 'Mayorista' },
  { _id: 'label-3', name: 'Para reconectar' },
];

/** A dialog with a labels picker and a submit, as «Subir por etiquetas» and «Etiquetar segmento» are. */
function LabelsDialog({ onClose, onSubmit }: { onClose: () => void; onSubmit: (ids: string[]) => void }) {
  const [ids, setIds] = useState<string[]>([]);
  return (
    <Dialog open onClose={onClose} aria-labelledby="labels-title">
      <DialogTitle id="labels-title">Subir a «Clientes 2025»</DialogTitle>
      <DialogContent>
        <RefField id="labels" name="mostradorLabels" label="Etiquetas" keys={['mostrador-labels']} multiple value={ids} onChange={(next) => setIds(next as string[])} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onSubmit(ids)}>Subir</Button>
      </DialogActions>
    </Dialog>
  );
}

beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

describe('RefField with several choices (the labels picker of the dialogs)', () => {
  it('keeps the options open to pick several, and Escape closes them without closing the dialog or losing the picks', async () => {
    fakeApi((call) => (call.method === 'GET' && call.path.includes('label') ? { status: 200, body: pageOf(labels) } : undefined));
    const onClose = vi.fn();
    const onSubmit = vi.fn();
    const user = userEvent.setup();
    renderApp(<LabelsDialog onClose={onClose} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog', { name: 'Subir a «Clientes 2025»' });

    await user.click(within(dialog).getByRole('combobox', { name: 'Etiquetas' }));
    await user.click(await screen.findByRole('option', { name: 'Cliente frecuente' }));
    // still open: the next label is one click away
    await user.click(screen.getByRole('option', { name: 'Mayorista' }));
    await user.keyboard('{Escape}');

    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Subir a «Clientes 2025»' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cliente frecuente' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Mayorista' })).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Subir' }));
    expect(onSubmit).toHaveBeenCalledWith(['label-1', 'label-2']);

    // with the options closed, Escape is the dialog's again
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
