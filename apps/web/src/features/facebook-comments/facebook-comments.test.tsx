import type { CommentReply } from '@mostrador/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceRecord } from '../../components/crud/types';
import { sessionStore } from '../../lib/session';
import { fakeApi } from '../../test/fake-api';
import { renderApp } from '../../test/render';
import { AnswerComment } from './answer-comment';
import { CommentRulePage } from './rule-page';

const admin = { chats: ['list', 'read', 'create', 'update', 'delete'] };
beforeEach(() => sessionStore.set((s) => ({ ...s, token: 'token', companyId: 'company-1' })));
afterEach(() => vi.restoreAllMocks());

const facebookRow: ResourceRecord = {
  _id: 'u-1',
  platform: 'facebook',
  authorName: 'Jorge Salazar',
  message: '¿Atienden los domingos en Miraflores?',
  receivedAt: '2026-11-26T10:00:00.000Z',
  commentId: '723456789012345_000006',
  createdAt: '2026-11-26T10:00:00.000Z',
  updatedAt: '2026-11-26T10:00:00.000Z',
};

describe('«Responder» on /comentarios-sin-respuesta', () => {
  it('answers privately by Messenger and says so instead of «Registro actualizado con éxito»', async () => {
    const { calls } = fakeApi((call) => {
      if (call.path === '/comments-without-responses/u-1/reply') {
        return { status: 200, body: { msg: 'Respuesta enviada por Messenger', reply: { _id: 'r-1', commentId: '723456789012345_000006', postId: 'p', authorName: 'Jorge Salazar', mode: 'private', by: 'user', text: 'x', status: 'sent', createdAt: '2026-11-26T10:00:00.000Z' } } };
      }
      return { status: 200, body: { payload: [] } };
    });
    const user = userEvent.setup();
    renderApp(<AnswerComment row={facebookRow} />);
    await user.click(screen.getByRole('button', { name: 'Responder a Jorge Salazar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Responder a Jorge Salazar' });
    expect(within(dialog).getByText('«¿Atienden los domingos en Miraflores?»')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Enviar por Messenger' })).toHaveProperty('disabled', true);
    await user.type(within(dialog).getByRole('textbox', { name: 'Respuesta' }), 'Sí, de 10 a 2');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar por Messenger' }));
    expect(await screen.findByText('Respuesta enviada por Messenger')).toBeTruthy();
    expect(screen.queryByText('Registro actualizado con éxito')).toBeNull();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ mode: 'private', text: 'Sí, de 10 a 2' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('answers publicly, and keeps the dialog with Facebook’s reason when it refuses', async () => {
    const { calls } = fakeApi((call) => {
      if (call.path === '/comments-without-responses/u-1/reply') {
        return { status: 502, body: { errors: { code: 'PROVIDER_ERROR', msg: 'El token de la página de Facebook venció o no es válido (código 190)' } } };
      }
      return { status: 200, body: { payload: [] } };
    });
    const user = userEvent.setup();
    renderApp(<AnswerComment row={facebookRow} />);
    await user.click(screen.getByRole('button', { name: 'Responder a Jorge Salazar' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Pública (comentario)' }));
    expect(within(dialog).getByText(/a la vista de todos/)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Respuesta' }), 'Sí 🙂');
    await user.click(within(dialog).getByRole('button', { name: 'Publicar respuesta' }));
    expect(await within(dialog).findByText(/token de la página de Facebook venció/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ mode: 'public', text: 'Sí 🙂' });
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('offers no «Responder» for a comment that did not come through the page (Instagram)', () => {
    fakeApi(() => ({ status: 200, body: {} }));
    renderApp(<AnswerComment row={{ ...facebookRow, platform: 'instagram', commentId: undefined }} />);
    expect(screen.queryByRole('button', { name: /Responder/ })).toBeNull();
  });
});

describe('/comment-to-msn/{id}', () => {
  const reply = (over: Partial<CommentReply>): CommentReply => ({
    _id: 'r',
    ruleId: 'rule-1',
    commentId: 'c',
    postId: 'p',
    authorName: 'Rosa Quispe',
    commentText: '¿Cuánto cuesta el pack familiar?',
    mode: 'private',
    by: 'rule',
    text: '¡Hola! El pack familiar está a S/ 49.90',
    status: 'sent',
    chatId: 'chat-9',
    createdAt: '2026-11-26T10:00:00.000Z',
    sentAt: '2026-11-26T10:00:01.000Z',
    ...over,
  });

  it('shows the rule and its replies: sent with its chat, failed with Facebook’s reason', async () => {
    fakeApi((call) => {
      if (call.path === '/permissions') return { status: 200, body: { role: 'admin', permissions: admin } };
      if (call.path === '/comment-rules/rule-1') {
        return { status: 200, body: { _id: 'rule-1', name: 'Precio del pack familiar', kind: 'post', postId: '104857362819475_712345678901234', keywords: ['precio', 'cuánto'], replyText: '¡Hola! El pack familiar está a S/ 49.90', active: true, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' } };
      }
      if (call.path === '/comment-rules/rule-1/replies') {
        return {
          status: 200,
          body: {
            total: 2,
            payload: [
              reply({ _id: 'r2', authorName: 'Pedro Huamán', commentText: 'Info del precio', status: 'failed', chatId: undefined, reason: 'Facebook ya no permite responder en privado a este comentario (código 10903)' }),
              reply({ _id: 'r1' }),
            ],
          },
        };
      }
      return undefined;
    });
    renderApp(
      <Routes>
        <Route path="/comment-to-msn/:id" element={<CommentRulePage />} />
      </Routes>,
      { route: '/comment-to-msn/rule-1' },
    );
    expect(await screen.findByRole('heading', { name: 'Precio del pack familiar', level: 1 })).toBeTruthy();
    expect(screen.getByText('cuánto')).toBeTruthy();
    expect(await screen.findByText('1 enviada · 1 fallida')).toBeTruthy();
    expect(screen.getAllByText(/código 10903/).length).toBeGreaterThan(0);
    const link = screen.getAllByRole('link', { name: 'Abrir chat' })[0];
    expect(link.getAttribute('href')).toBe('/chat?chatId=chat-9');
  });
});
