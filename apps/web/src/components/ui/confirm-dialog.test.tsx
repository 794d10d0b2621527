import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { useConfirm } from './confirm-dialog';

function DeleteButton() {
  const confirm = useConfirm();
  const [answer, setAnswer] = useState('sin respuesta');
  return (
    <>
      <button type="button" onClick={async () => setAnswer(String(await confirm('¿Eliminar el registro?')))}>
        Eliminar
      </button>
      <p>Respuesta: {answer}</p>
    </>
  );
}

describe('useConfirm', () => {
  it('resolves true on Aceptar', async () => {
    const user = userEvent.setup();
    renderApp(<DeleteButton />);

    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Advertencia' });
    expect(dialog.textContent).toContain('¿Eliminar el registro?');
    await user.click(screen.getByRole('button', { name: 'Aceptar' }));

    expect(await screen.findByText('Respuesta: true')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('resolves false on Cancelar', async () => {
    const user = userEvent.setup();
    renderApp(<DeleteButton />);

    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    await screen.findByRole('dialog', { name: 'Advertencia' });
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));

    expect(await screen.findByText('Respuesta: false')).toBeTruthy();
  });
});
