import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import { LoginPage } from './login-page';

describe('LoginPage', () => {
  it('shows "Este campo es requerido" under every empty field on submit', async () => {
    const user = userEvent.setup();
    renderApp(<LoginPage />, { route: '/login' });

    await user.click(screen.getByRole('button', { name: 'Ingresar' }));

    expect(await screen.findAllByText('Este campo es requerido')).toHaveLength(3);
    expect(screen.getByLabelText('Corporación').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows "Este campo debe ser un email válido" for a bad e-mail', async () => {
    const user = userEvent.setup();
    renderApp(<LoginPage />, { route: '/login' });

    await user.type(screen.getByLabelText('Corporación'), 'demo');
    await user.type(screen.getByLabelText('Correo electrónico'), 'no-es-un-correo');
    await user.type(screen.getByLabelText('Contraseña'), 'demo1234');
    await user.click(screen.getByRole('button', { name: 'Ingresar' }));

    expect(await screen.findByText('Este campo debe ser un email válido')).toBeTruthy();
    expect(screen.queryByText('Este campo es requerido')).toBeNull();
  });

  it('labels the fields and links to password recovery', () => {
    renderApp(<LoginPage />, { route: '/login' });
    expect(screen.getByRole('heading', { name: 'Iniciar sesión' })).toBeTruthy();
    expect(screen.getByLabelText('Corporación').getAttribute('placeholder')).toBe('demo');
    expect((screen.getByLabelText('Corporación') as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).getAttribute('href')).toBe(
      '/recuperar-contrasena',
    );
  });
});
