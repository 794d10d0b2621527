import { randomBytes } from 'node:crypto';
import { type MessageClient, ProviderError } from '../meta/send.js';

/** A message whose text contains this word is reported failed by the sandbox (decision 0014). */
export const SANDBOX_FAIL_WORD = '#falla';

/** The reason the sandbox gives, shaped like a WhatsApp status error (code · title · details). */
export const SANDBOX_FAIL_REASON = '131026 · Mensaje no entregable · (sandbox) el número no pudo recibir el mensaje';

/**
 * The sandbox provider (SEND_PROVIDER=sandbox, the default outside production): it never
 * reaches Meta. It accepts every well-formed message with an id shaped like the provider's
 * (wamid.… on WhatsApp, m_… on Messenger/Instagram) and announces the statuses a real phone
 * would report — delivered after `stepSeconds`, read after twice that — which the chats
 * module feeds through the webhooks' own status path. A text containing '#falla' is accepted
 * and then reported failed, as WhatsApp does with an undeliverable message.
 */
export function createSandboxClient(stepSeconds: number): MessageClient {
  return {
    name: 'sandbox',
    async send(target, content) {
      // the limits Meta enforces on product messages (decision 0085): the sandbox refuses what Meta would
      const products = content.products?.items.length ?? 0;
      if (products > 30 || (target.channel !== 'whatsapp' && products > 10)) {
        throw new ProviderError('(sandbox) Meta admite hasta 30 productos por mensaje en WhatsApp y 10 en Messenger e Instagram');
      }
      // reply buttons and lists (decision 0100): WhatsApp only, at most 3 buttons or 10 rows
      if (content.choices) {
        if (target.channel !== 'whatsapp') throw new ProviderError('(sandbox) Los botones de respuesta y las listas solo existen en WhatsApp');
        const max = content.choices.style === 'buttons' ? 3 : 10;
        if (content.choices.options.length > max) throw new ProviderError(`(sandbox) WhatsApp admite hasta ${max} opciones en ${content.choices.style === 'buttons' ? 'botones' : 'una lista'}`);
      }
      const token = randomBytes(12).toString('hex').toUpperCase();
      const messageId = target.channel === 'whatsapp' ? `wamid.SANDBOX${token}` : `m_sandbox_${token.toLowerCase()}`;
      const fails = content.text?.toLowerCase().includes(SANDBOX_FAIL_WORD);
      return {
        messageId,
        followUps: fails
          ? [{ status: 'failed', afterSeconds: stepSeconds, error: SANDBOX_FAIL_REASON }]
          : [
              { status: 'delivered', afterSeconds: stepSeconds },
              { status: 'read', afterSeconds: stepSeconds * 2 },
            ],
      };
    },
    /** The sandbox's line is at Meta's second tier (2,000 people a day outside their window). */
    async messagingLimit() {
      return 'TIER_2K';
    },
    async media() {
      throw new ProviderError('En modo sandbox los archivos recibidos no se descargan de Meta (SEND_PROVIDER=sandbox)', { notFound: true });
    },
  };
}
