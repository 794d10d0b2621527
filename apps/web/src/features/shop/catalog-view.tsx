import type { OrderPlaceOut, PublicCatalog, PublicProduct } from '@mostrador/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Cart, type CartLine, cartParamOf, useCart } from './cart';
import { Checkout } from './checkout';
import { imageSrc } from '../../lib/image-src';
import { money } from './money';
import { ShopError, shopApi } from './shop-api';

type View = { kind: 'list' } | { kind: 'cart' } | { kind: 'checkout' } | { kind: 'done'; placed: OrderPlaceOut };

/** The shop of one catalogue: search, filters, product sheet, cart, checkout and confirmation. */
export function CatalogView({ catalog }: { catalog: PublicCatalog }) {
  const currency = catalog.company.currency;
  const cart = useCart(catalog._id);
  const [view, setView] = useState<View>({ kind: 'list' });
  const [open, setOpen] = useState<PublicProduct>();

  // a link with ?carrito=SKU:2,… (a follow-up from the chat) fills the cart once, then leaves the address clean
  const [prefilled, setPrefilled] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page load, from the address it was opened with (the parameter is gone after)
  useEffect(() => {
    const wanted = cartParamOf(window.location.search);
    if (!wanted.length) return;
    const url = new URL(window.location.href);
    url.searchParams.delete('carrito');
    window.history.replaceState(window.history.state, '', url);
    void (async () => {
      let added = 0;
      for (const { sku, quantity } of wanted) {
        const page = await shopApi.products(catalog._id, { page: 1, filter: sku }).catch(() => undefined);
        for (const p of page?.payload ?? []) {
          const variant = p.variants?.find((v) => v.sku.toUpperCase() === sku);
          if (!variant && p.sku.toUpperCase() !== sku) continue;
          const available = variant ? variant.available : p.available;
          if (available <= 0) break;
          cart.add({
            productId: p._id,
            ...(variant ? { variantSku: variant.sku, variantLabel: variantLabelOf(variant) } : {}),
            name: p.name,
            imageUrl: p.imageUrl,
            price: variant ? variant.price : p.price,
            quantity,
            available,
          });
          added++;
          break;
        }
      }
      setPrefilled(added ? `Te dejamos ${added === 1 ? 'tu producto' : `tus ${added} productos`} en el carrito` : 'Los productos del enlace ya no están disponibles');
    })();
  }, [catalog._id]);

  // the phone's back button closes what is open (cart, checkout, product) before leaving the shop
  const go = (next: View) => {
    window.history.pushState({ shop: next.kind }, '');
    setView(next);
    window.scrollTo(0, 0);
  };
  useEffect(() => {
    const onPop = () => {
      setOpen(undefined);
      setView((v) => (v.kind === 'done' ? v : { kind: 'list' }));
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  return (
    <div className="shop">
      <header className="shop-header">
        <div className="shop-header-row">
          <button type="button" className="shop-brand" onClick={() => setView({ kind: 'list' })}>
            <span className="shop-logo" aria-hidden>
              {catalog.company.name.slice(0, 1)}
            </span>
            <span>
              <b>{catalog.company.name}</b>
              <small>{catalog.name}</small>
            </span>
          </button>
          {view.kind !== 'done' ? (
            <button type="button" className="shop-cart-button" onClick={() => go({ kind: 'cart' })} aria-label={`Carrito: ${cart.count} productos`}>
              <CartIcon />
              {cart.count > 0 ? <span className="shop-badge">{cart.count}</span> : null}
            </button>
          ) : null}
        </div>
      </header>
      <main className="shop-main">
        {prefilled && view.kind === 'list' ? (
          <p className="shop-alert shop-alert-info" role="status">
            {prefilled}
          </p>
        ) : null}
        {view.kind === 'list' ? <ProductList catalog={catalog} onOpen={setOpen} /> : null}
        {view.kind === 'cart' ? <CartPanel cart={cart} currency={currency} onBack={() => window.history.back()} onCheckout={() => go({ kind: 'checkout' })} /> : null}
        {view.kind === 'checkout' ? (
          <Checkout
            catalogId={catalog._id}
            cart={cart}
            currency={currency}
            onBack={() => window.history.back()}
            onPlaced={(placed) => {
              cart.clear();
              go({ kind: 'done', placed });
            }}
          />
        ) : null}
        {view.kind === 'done' ? <Confirmation placed={view.placed} onMore={() => setView({ kind: 'list' })} /> : null}
      </main>
      {view.kind === 'list' && cart.count > 0 ? (
        <div className="shop-cartbar">
          <button type="button" className="shop-button shop-button-block" onClick={() => go({ kind: 'cart' })}>
            Ver carrito ({cart.count}) · {money(cart.total, currency)}
          </button>
        </div>
      ) : null}
      {open ? (
        <ProductSheet
          product={open}
          currency={currency}
          onClose={() => setOpen(undefined)}
          onAdd={(line) => {
            cart.add(line);
            setOpen(undefined);
          }}
        />
      ) : null}
    </div>
  );
}

function CartIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden>
      <path
        fill="currentColor"
        d="M7 18a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm10 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM7.2 14h9.9c.8 0 1.4-.4 1.7-1.1l3.1-6.4A1 1 0 0 0 21 5H5.2l-.9-2H1v2h2l3.6 7.6L5.2 15c-.7 1.3.3 3 1.8 3H19v-2H7l1-2z"
      />
    </svg>
  );
}

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return current;
}

function ProductList({ catalog, onOpen }: { catalog: PublicCatalog; onOpen: (p: PublicProduct) => void }) {
  const [text, setText] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const [brandId, setBrandId] = useState('');
  const filter = useDebounced(text.trim(), 250);
  const [items, setItems] = useState<PublicProduct[]>([]);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const asked = useRef(0);

  // a new search or filter starts over at page 1; "Ver más" appends the next page
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter is what resets the page
  useEffect(() => {
    setPage(1);
  }, [filter, categoryId, brandId]);
  useEffect(() => {
    const ticket = ++asked.current;
    setLoading(true);
    setError(undefined);
    shopApi
      .products(catalog._id, { page, filter: filter || undefined, categoryId: categoryId || undefined, brandId: brandId || undefined })
      .then((result) => {
        if (ticket !== asked.current) return;
        setItems((current) => (page === 1 ? result.payload : [...current, ...result.payload]));
        setTotal(result.totalDocs);
      })
      .catch((e: unknown) => ticket === asked.current && setError(e instanceof ShopError ? e.message : 'No pudimos cargar los productos'))
      .finally(() => ticket === asked.current && setLoading(false));
  }, [catalog._id, page, filter, categoryId, brandId]);

  return (
    <>
      <div className="shop-toolbar">
        <input
          className="shop-search"
          type="search"
          placeholder={`Buscar en ${catalog.productCount} productos`}
          aria-label="Buscar productos"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {catalog.brands.length > 1 ? (
          <select className="shop-select" aria-label="Marca" value={brandId} onChange={(e) => setBrandId(e.target.value)}>
            <option value="">Todas las marcas</option>
            {catalog.brands.map((b) => (
              <option key={b._id} value={b._id}>
                {b.name}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {catalog.categories.length > 1 ? (
        <nav className="shop-chips" aria-label="Categorías">
          <button type="button" className={categoryId === '' ? 'is-on' : ''} onClick={() => setCategoryId('')}>
            Todo
          </button>
          {catalog.categories.map((c) => (
            <button key={c._id} type="button" className={categoryId === c._id ? 'is-on' : ''} onClick={() => setCategoryId(c._id)}>
              {c.name}
            </button>
          ))}
        </nav>
      ) : null}
      {error ? (
        <p className="shop-alert" role="alert">
          {error}
        </p>
      ) : null}
      {!loading && !error && items.length === 0 ? <p className="shop-empty">No encontramos productos con esa búsqueda.</p> : null}
      <ul className="shop-grid">
        {items.map((p) => (
          <li key={p._id}>
            <button type="button" className="shop-product" onClick={() => onOpen(p)} aria-label={p.name}>
              <span className="shop-product-image">
                {p.imageUrl ? <img src={imageSrc(p.imageUrl)} alt="" loading="lazy" width={400} height={400} /> : null}
                {p.available === 0 ? <span className="shop-soldout">Agotado</span> : null}
              </span>
              <span className="shop-product-body">
                {p.brand ? <small>{p.brand}</small> : null}
                <span className="shop-product-name">{p.name}</span>
                <b>
                  {p.variants?.some((v) => v.price !== p.price) ? 'Desde ' : ''}
                  {money(Math.min(p.price, ...(p.variants ?? []).map((v) => v.price)), catalog.company.currency)}
                </b>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {loading ? <p className="shop-muted shop-center">Cargando productos…</p> : null}
      {!loading && items.length < total ? (
        <button type="button" className="shop-button shop-button-ghost shop-more" onClick={() => setPage((n) => n + 1)}>
          Ver más productos
        </button>
      ) : null}
    </>
  );
}

function variantLabelOf(v: NonNullable<PublicProduct['variants']>[number]) {
  return [v.size ? `Talla ${v.size}` : '', v.color?.name ?? ''].filter(Boolean).join(' · ');
}

function ProductSheet({ product, currency, onClose, onAdd }: { product: PublicProduct; currency: string; onClose: () => void; onAdd: (line: CartLine) => void }) {
  const variants = product.variants ?? [];
  const [sku, setSku] = useState(() => variants.find((v) => v.available > 0)?.sku);
  const [quantity, setQuantity] = useState(1);
  const variant = variants.find((v) => v.sku === sku);
  const available = variants.length ? (variant?.available ?? 0) : product.available;
  const price = variant?.price ?? product.price;
  const sizes = useMemo(() => [...new Set(variants.map((v) => v.size).filter(Boolean))], [variants]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the sheet is the mouse's way out; the keyboard has Escape and «Cerrar»
    <div className="shop-sheet-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()} role="presentation">
      <div className="shop-sheet" role="dialog" aria-modal="true" aria-label={product.name}>
        <button type="button" className="shop-sheet-close" onClick={onClose} aria-label="Cerrar">
          ×
        </button>
        <div className="shop-sheet-image">{product.imageUrl ? <img src={imageSrc(product.imageUrl)} alt={product.name} /> : null}</div>
        <div className="shop-sheet-body">
          {product.brand ? <small className="shop-muted">{product.brand}</small> : null}
          <h2>{product.name}</h2>
          <p className="shop-price">{money(price, currency)}</p>
          {product.description ? <p className="shop-description">{product.description}</p> : null}
          {variants.length ? (
            <fieldset className="shop-variants">
              <legend>{sizes.length ? 'Elige talla y color' : 'Elige una opción'}</legend>
              <div>
                {variants.map((v) => (
                  <button
                    key={v.sku}
                    type="button"
                    className={v.sku === sku ? 'is-on' : ''}
                    disabled={v.available === 0}
                    onClick={() => {
                      setSku(v.sku);
                      setQuantity(1);
                    }}
                    aria-pressed={v.sku === sku}
                  >
                    {v.color ? <i style={{ background: v.color.hex }} aria-hidden /> : null}
                    {variantLabelOf(v) || v.sku}
                  </button>
                ))}
              </div>
            </fieldset>
          ) : null}
          <p className="shop-muted">{available > 0 ? (available <= 5 ? `¡Quedan solo ${available}!` : 'Disponible') : 'Agotado'}</p>
          <div className="shop-sheet-actions">
            <fieldset className="shop-stepper" aria-label="Cantidad">
              <button type="button" onClick={() => setQuantity((q) => Math.max(1, q - 1))} aria-label="Quitar uno">
                −
              </button>
              <span>{quantity}</span>
              <button type="button" onClick={() => setQuantity((q) => Math.min(available, q + 1))} aria-label="Agregar uno" disabled={quantity >= available}>
                +
              </button>
            </fieldset>
            <button
              type="button"
              className="shop-button"
              disabled={available === 0}
              onClick={() =>
                onAdd({
                  productId: product._id,
                  ...(variant ? { variantSku: variant.sku, variantLabel: variantLabelOf(variant) } : {}),
                  name: product.name,
                  imageUrl: product.imageUrl,
                  price,
                  quantity,
                  available,
                })
              }
            >
              Agregar al carrito
            </button>
          </div>
        </div>
      </div>
    </div>
  );
}

function CartPanel({ cart, currency, onBack, onCheckout }: { cart: Cart; currency: string; onBack: () => void; onCheckout: () => void }) {
  return (
    <section className="shop-cart">
      <button type="button" className="shop-link" onClick={onBack}>
        ← Seguir comprando
      </button>
      <h1>Tu carrito</h1>
      {cart.lines.length === 0 ? <p className="shop-empty">Tu carrito está vacío.</p> : null}
      <ul className="shop-cart-lines">
        {cart.lines.map((l) => (
          <li key={`${l.productId}:${l.variantSku ?? ''}`}>
            {l.imageUrl ? <img src={imageSrc(l.imageUrl)} alt="" width={64} height={64} /> : <span className="shop-thumb" />}
            <div>
              <b>{l.name}</b>
              {l.variantLabel ? <small>{l.variantLabel}</small> : null}
              <span>{money(l.price, currency)}</span>
            </div>
            <div className="shop-stepper shop-stepper-small">
              <button type="button" onClick={() => cart.setQuantity(l, l.quantity - 1)} aria-label={`Quitar uno de ${l.name}`}>
                −
              </button>
              <span>{l.quantity}</span>
              <button type="button" onClick={() => cart.setQuantity(l, l.quantity + 1)} aria-label={`Agregar uno de ${l.name}`} disabled={l.quantity >= l.available}>
                +
              </button>
            </div>
          </li>
        ))}
      </ul>
      {cart.lines.length ? (
        <>
          <div className="shop-total">
            <span>Total</span>
            <b>{money(cart.total, currency)}</b>
          </div>
          <button type="button" className="shop-button shop-button-block" onClick={onCheckout}>
            Continuar con el pedido
          </button>
        </>
      ) : null}
    </section>
  );
}

function Confirmation({ placed, onMore }: { placed: OrderPlaceOut; onMore: () => void }) {
  const link = `/ordenes/${placed.token}`;
  return (
    <section className="shop-done">
      <div className="shop-check" aria-hidden>
        ✓
      </div>
      <h1>¡Pedido recibido!</h1>
      <p>
        Tu pedido <b>{placed.order.code}</b> por <b>{money(placed.order.total, placed.order.currency)}</b> ya está en {placed.order.company}.
      </p>
      <p className="shop-muted">Te escribiremos por WhatsApp para coordinar el pago y la entrega. Guarda este enlace para ver el estado de tu pedido.</p>
      <a className="shop-button shop-button-block" href={link}>
        Ver mi pedido
      </a>
      <button type="button" className="shop-button shop-button-ghost shop-button-block" onClick={onMore}>
        Seguir comprando
      </button>
    </section>
  );
}
