import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { RegisterCorporationForm } from './register-corporation-page';

describe('RegisterCorporationForm', () => {
  it('shows "Las contraseñas no concuerdan" when the confirmation differs', async () => {
    const user = userEvent.setup();
    const onRegistered = vi.fn();
    renderApp(<RegisterCorporationForm token="registration-token-123" onRegistered={onRegistered} />);

    await user.type(screen.getByLabelText('Nombre de la corporación'), 'Tiendas Sol');
    await user.type(screen.getByLabelText('Identificador'), 'tiendas-sol');
    await user.type(screen.getByLabelText('Nombre de la primera compañía'), 'Sol Perú');
    await user.type(screen.getByLabelText('Nombres'), 'Ana');
    await user.type(screen.getByLabelText('Apellidos'), 'Quispe');
    await user.type(screen.getByLabelText('Correo electrónico'), 'ana@sol.pe');
    await user.type(screen.getByLabelText('Contraseña'), 'secreta123');
    await user.type(screen.getByLabelText('Confirmar contraseña'), 'secreta124');
    await user.click(screen.getByRole('button', { name: 'Registrar' }));

    expect(await screen.findByText('Las contraseñas no concuerdan')).toBeTruthy();
    expect(onRegistered).not.toHaveBeenCalled();
  });

  it('requires every field and checks the e-mail', async () => {
    const user = userEvent.setup();
    renderApp(<RegisterCorporationForm token="registration-token-123" onRegistered={vi.fn()} />);

    await user.type(screen.getByLabelText('Correo electrónico'), 'ana@');
    await user.click(screen.getByRole('button', { name: 'Registrar' }));

    expect((await screen.findAllByText('Este campo es requerido')).length).toBeGreaterThanOrEqual(6);
    expect(screen.getByText('Este campo debe ser un email válido')).toBeTruthy();
  });
});
