import { providerReason } from '../http.js';
import { MarketplaceError } from '../marketplace.js';

/** Actions that create a feed: Seller Center limits them (50 at once, then one every 2 minutes, 770 a day). */
export const FEED_ACTIONS = new Set(['ProductCreate', 'ProductUpdate', 'ProductRemove', 'Image']);

/**
 * The Spanish reason of a Seller Center ErrorResponse (`Head.ErrorCode`, `Head.ErrorMessage`,
 * "E0xx: …"), as decision 0035 lists them. The marketplace's own text is kept in parentheses
 * where it names the exact value (a SKU, an id).
 */
export function sellerCenterErrorOf(code: number, message: string, action: string, status: number, ctx: { userId: string }): MarketplaceError {
  // Seller Center's own ErrorMessage, from its error format (never a body), clipped to one line
  const detail = providerReason(message.replace(/^E\d+:\s*/, ''));
  const e = (kind: ConstructorParameters<typeof MarketplaceError>[0], msg: string) => new MarketplaceError(kind, msg, status, String(code));
  switch (code) {
    case 1:
      return e('invalid', `Seller Center pidió un parámetro que falta (${detail})`);
    case 2:
    case 4:
    case 5:
    case 8:
      return e('invalid', `Seller Center no aceptó la solicitud ${action} (${detail})`);
    case 3:
      return e('config', 'Seller Center rechazó la hora de la solicitud (Timestamp vencido): revisa que el reloj del servidor esté en hora');
    case 6:
    case 21:
    case 1000:
      return e('server', `Seller Center tuvo un error interno (${detail}) y siguió fallando tras varios reintentos`);
    case 7:
      return e('auth', `La API key no corresponde al usuario ${ctx.userId} de Seller Center (firma rechazada): copia de nuevo el correo y la API key desde Mi cuenta → Integraciones`);
    case 9:
      return e('permission', `El usuario ${ctx.userId} no tiene permiso para ${action} en Seller Center: dale un rol con acceso a la API (Seller API Access)`);
    case 10:
      return e('config', 'Seller Center exige HTTPS: revisa la URL de la API');
    case 11:
      return e('invalid', 'La solicitud es demasiado grande para Seller Center');
    case 429:
      return FEED_ACTIONS.has(action)
        ? e('rate-limited', 'Seller Center limita los envíos de cambios (feeds): 50 seguidos y luego uno cada 2 minutos, 770 al día. Inténtalo de nuevo en unos minutos')
        : e('rate-limited', 'Seller Center limitó las solicitudes (429) y siguió rechazándolas tras varios reintentos');
    case 14:
    case 15:
    case 19:
      return e('invalid', `Seller Center no aceptó la página pedida (${detail})`);
    case 16:
      return e('not-found', `La orden no existe en Seller Center (${detail})`);
    case 17:
    case 18:
      return e('invalid', `Seller Center no aceptó las fechas de la consulta (${detail})`);
    case 20:
    case 23:
      return e('not-found', `Algún artículo de la orden no existe en Seller Center (${detail})`);
    case 30:
      return e('invalid', 'La solicitud llegó vacía a Seller Center');
    case 32:
      return e('invalid', `Seller Center no ofrece ese tipo de documento (${detail})`);
    case 34:
      return e('conflict', 'Primero marca la orden como lista para enviar: Seller Center solo da la etiqueta de artículos listos para enviar');
    case 35:
      return e('not-found', `Seller Center aún no tiene ese documento para la orden (${detail})`);
    case 36:
      return e('invalid', `Seller Center no aceptó el filtro de estado (${detail})`);
    case 73:
      return e('conflict', `Solo se marcan listos para enviar artículos pendientes o ya listos (${detail})`);
    default:
      return e('invalid', `Seller Center rechazó la solicitud: ${detail || `error ${code}`}`);
  }
}
