import { type OrderStatus, orderStatusLabels, type PublicOrder, shippingMethodLabels } from '@mostrador/contract';
import { useEffect, useState } from 'react';
import { imageSrc } from '../../lib/image-src';
import { money } from './money';
import { ShopError, shopApi } from './shop-api';

/** The steps a customer sees (a cancelled order shows that instead). */
const steps: OrderStatus[] = ['created', 'paid', 'shipped', 'done'];

/** /ordenes/{token}: the customer's own order, reachable only through its link (decision 0032). */
export function OrderPage({ token }: { token: string }) {
  const [order, setOrder] = useState<PublicOrder>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    shopApi
      .order(token)
      .then(setOrder)
      .catch((e: unknown) => setError(e instanceof ShopError ? e.message : 'No pudimos cargar tu pedido'));
  }, [token]);

  if (error) {
    return (
      <div className="shop">
        <main className="shop-main">
          <p className="shop-alert" role="alert">
            {error}
          </p>
        </main>
      </div>
    );
  }
  if (!order) return <p className="shop-muted shop-center">Cargando tu pedido…</p>;
  const reached = steps.indexOf(order.status);
  const date = new Intl.DateTimeFormat('es-PE', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(order.createdAt));
  return (
    <div className="shop">
      <header className="shop-header">
        <div className="shop-header-row">
          <span className="shop-brand">
            <span className="shop-logo" aria-hidden>
              {order.company.slice(0, 1)}
            </span>
            <span>
              <b>{order.company}</b>
              <small>Tu pedido</small>
            </span>
          </span>
        </div>
      </header>
      <main className="shop-main shop-order">
        <h1>Pedido {order.code}</h1>
        <p className="shop-muted">Hecho el {date}</p>
        {order.status === 'cancelled' ? (
          <p className="shop-alert">Este pedido fue cancelado.</p>
        ) : (
          <ol className="shop-steps" aria-label="Estado del pedido">
            {steps.map((s, i) => (
              <li key={s} className={i <= reached ? 'is-done' : ''} aria-current={i === reached ? 'step' : undefined}>
                <span>{i < reached ? '✓' : i + 1}</span>
                {orderStatusLabels[s]}
              </li>
            ))}
          </ol>
        )}
        <p className="shop-status">
          Estado: <b>{order.statusLabel}</b>
        </p>
        <section className="shop-card">
          <h2>Productos</h2>
          <ul className="shop-cart-lines">
            {order.items.map((l) => (
              <li key={`${l.sku}:${l.name}`}>
                {l.imageUrl ? <img src={imageSrc(l.imageUrl)} alt="" width={64} height={64} /> : <span className="shop-thumb" />}
                <div>
                  <b>{l.name}</b>
                  {l.size || l.color ? <small>{[l.size ? `Talla ${l.size}` : '', l.color ?? ''].filter(Boolean).join(' · ')}</small> : null}
                  <span>
                    {l.quantity} × {money(l.unitPrice, order.currency)}
                  </span>
                </div>
                <b>{money(l.total, order.currency)}</b>
              </li>
            ))}
          </ul>
          <div className="shop-total">
            <span>Total</span>
            <b>{money(order.total, order.currency)}</b>
          </div>
        </section>
        {order.shippment ? (
          <section className="shop-card">
            <h2>Entrega</h2>
            <p>{shippingMethodLabels[order.shippment.method]}</p>
            {order.shippment.method === 'delivery' ? <p className="shop-muted">{[order.shippment.address, order.shippment.city].filter(Boolean).join(', ')}</p> : null}
          </section>
        ) : null}
        {order.catalogId ? (
          <a className="shop-button shop-button-ghost shop-button-block" href={`/catalogo-digital/${order.catalogId}`}>
            Volver a la tienda
          </a>
        ) : null}
      </main>
    </div>
  );
}
