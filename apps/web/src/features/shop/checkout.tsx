import { formMessages, type OrderPlaceOut, shippingMethodLabels, shippingMethods } from '@mostrador/contract';
import { type FormEvent, useState } from 'react';
import type { Cart } from './cart';
import { money } from './money';
import { ShopError, shopApi } from './shop-api';

export interface CheckoutValues {
  name: string;
  telefono: string;
  email: string;
  document: string;
  method: (typeof shippingMethods)[number];
  address: string;
  city: string;
  reference: string;
  notes: string;
}

const empty: CheckoutValues = { name: '', telefono: '', email: '', document: '', method: 'delivery', address: '', city: '', reference: '', notes: '' };

/** The browser's first check, in the contract's Spanish; the server checks again (and prices). */
export function validateCheckout(v: CheckoutValues): Partial<Record<keyof CheckoutValues, string>> {
  const errors: Partial<Record<keyof CheckoutValues, string>> = {};
  if (!v.name.trim()) errors.name = formMessages.required;
  const digits = v.telefono.replace(/\D/g, '');
  if (!v.telefono.trim()) errors.telefono = formMessages.required;
  else if (digits.length < 7 || digits.length > 15) errors.telefono = 'Escribe un teléfono válido';
  if (v.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) errors.email = formMessages.email;
  if (v.method === 'delivery') {
    if (!v.address.trim()) errors.address = formMessages.required;
    if (!v.city.trim()) errors.city = formMessages.required;
  }
  return errors;
}

/** Server details (`customer.telefono`, `shippment.address`) as the form's fields. */
const fieldOfPath: Record<string, keyof CheckoutValues> = {
  'customer.name': 'name',
  'customer.telefono': 'telefono',
  'customer.email': 'email',
  'customer.document': 'document',
  'shippment.address': 'address',
  'shippment.city': 'city',
  'shippment.reference': 'reference',
  'shippment.notes': 'notes',
  'shippment.method': 'method',
};

const KEY_STORE = 'mostrador-pedido-clave';

/**
 * The Idempotency-Key of this cart's placement: kept while the same cart is being sent, so a
 * retry after a lost answer replays the first order instead of placing a second one.
 */
function keyFor(signature: string): string {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY_STORE) ?? 'null') as { signature: string; key: string } | null;
    if (saved?.signature === signature) return saved.key;
    const key = crypto.randomUUID();
    sessionStorage.setItem(KEY_STORE, JSON.stringify({ signature, key }));
    return key;
  } catch {
    return crypto.randomUUID();
  }
}

export function Checkout({
  catalogId,
  cart,
  currency,
  onBack,
  onPlaced,
}: {
  catalogId: string;
  cart: Cart;
  currency: string;
  onBack: () => void;
  onPlaced: (placed: OrderPlaceOut) => void;
}) {
  const [values, setValues] = useState<CheckoutValues>(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof CheckoutValues, string>>>({});
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);

  const set = (field: keyof CheckoutValues) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((x) => ({ ...x, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateCheckout(values);
    setErrors(found);
    setFailure(undefined);
    if (Object.keys(found).length) return;
    const input = {
      catalog: catalogId,
      items: cart.lines.map((l) => ({ productId: l.productId, ...(l.variantSku ? { variantSku: l.variantSku } : {}), quantity: l.quantity })),
      customer: {
        name: values.name.trim(),
        telefono: values.telefono.trim(),
        ...(values.email.trim() ? { email: values.email.trim() } : {}),
        ...(values.document.trim() ? { document: values.document.trim() } : {}),
      },
      shippment: {
        method: values.method,
        ...(values.method === 'delivery' ? { address: values.address.trim(), city: values.city.trim() } : {}),
        ...(values.method === 'delivery' && values.reference.trim() ? { reference: values.reference.trim() } : {}),
        ...(values.notes.trim() ? { notes: values.notes.trim() } : {}),
      },
    };
    setSending(true);
    try {
      const placed = await shopApi.place(input, keyFor(JSON.stringify(input)));
      try {
        sessionStorage.removeItem(KEY_STORE);
      } catch {
        // nothing kept
      }
      onPlaced(placed);
    } catch (error) {
      const e = error instanceof ShopError ? error : new ShopError(0, 'Algo salió mal. Inténtalo de nuevo.');
      const byField: Partial<Record<keyof CheckoutValues, string>> = {};
      for (const d of e.details) {
        const field = fieldOfPath[d.path];
        if (field) byField[field] = d.msg;
      }
      setErrors(byField);
      setFailure(e.message);
    } finally {
      setSending(false);
    }
  }

  const field = (name: keyof CheckoutValues, label: string, props: Record<string, unknown> = {}) => (
    <label className="shop-field">
      <span>{label}</span>
      <input value={values[name]} onChange={set(name)} aria-invalid={errors[name] ? true : undefined} name={name} {...props} />
      {errors[name] ? <small className="shop-field-error">{errors[name]}</small> : null}
    </label>
  );

  return (
    <form className="shop-checkout" onSubmit={submit} noValidate>
      <button type="button" className="shop-link" onClick={onBack}>
        ← Seguir comprando
      </button>
      <h1>Finalizar pedido</h1>
      <section className="shop-card">
        <h2>Tus datos</h2>
        {field('name', 'Nombre y apellido', { autoComplete: 'name' })}
        {field('telefono', 'Teléfono (WhatsApp)', { type: 'tel', inputMode: 'tel', autoComplete: 'tel', placeholder: '987 654 321' })}
        {field('email', 'Correo electrónico (opcional)', { type: 'email', autoComplete: 'email' })}
        {field('document', 'DNI o RUC (opcional)', { inputMode: 'numeric' })}
      </section>
      <section className="shop-card">
        <h2>Entrega</h2>
        <div className="shop-segmented" role="radiogroup" aria-label="Entrega">
          {shippingMethods.map((m) => (
            <label key={m} className={values.method === m ? 'is-on' : ''}>
              <input type="radio" name="method" value={m} checked={values.method === m} onChange={set('method')} />
              {shippingMethodLabels[m]}
            </label>
          ))}
        </div>
        {values.method === 'delivery' ? (
          <>
            {field('address', 'Dirección', { autoComplete: 'street-address' })}
            {field('city', 'Distrito o ciudad', { autoComplete: 'address-level2' })}
            {field('reference', 'Referencia (opcional)')}
          </>
        ) : (
          <p className="shop-muted">Te avisaremos por WhatsApp cuando tu pedido esté listo para recoger.</p>
        )}
        {field('notes', 'Nota para la tienda (opcional)')}
      </section>
      <section className="shop-card">
        <h2>Resumen</h2>
        <ul className="shop-summary">
          {cart.lines.map((l) => (
            <li key={`${l.productId}:${l.variantSku ?? ''}`}>
              <span>
                {l.quantity} × {l.name}
                {l.variantLabel ? <small> · {l.variantLabel}</small> : null}
              </span>
              <b>{money(l.price * l.quantity, currency)}</b>
            </li>
          ))}
        </ul>
        <div className="shop-total">
          <span>Total</span>
          <b>{money(cart.total, currency)}</b>
        </div>
        <p className="shop-muted">El costo de envío, si corresponde, lo coordinamos contigo por WhatsApp.</p>
      </section>
      {failure ? (
        <p className="shop-alert" role="alert">
          {failure}
        </p>
      ) : null}
      <button type="submit" className="shop-button shop-button-block" disabled={sending || cart.lines.length === 0}>
        {sending ? 'Enviando pedido…' : `Confirmar pedido · ${money(cart.total, currency)}`}
      </button>
    </form>
  );
}
