import type { PublicCatalog } from '@mostrador/contract';
import { useEffect, useState } from 'react';
import { CatalogView } from './catalog-view';
import { OrderPage } from './order-page';
import { ShopError, shopApi } from './shop-api';

/**
 * Where a public link points (decision 0031): /catalogo-digital/{catalogId},
 * /catalogo-digital?compania={companyId} (that company's default catalogue), /ordenes/{token}.
 */
export function routeOf(pathname: string, search: string): { kind: 'catalog'; id?: string; company?: string } | { kind: 'order'; token: string } {
  const order = /^\/ordenes\/([^/]+)\/?$/.exec(pathname);
  if (order) return { kind: 'order', token: decodeURIComponent(order[1]) };
  const catalog = /^\/catalogo-digital(?:\/([^/]+))?\/?$/.exec(pathname);
  const company = new URLSearchParams(search).get('compania') ?? undefined;
  return { kind: 'catalog', id: catalog?.[1] ? decodeURIComponent(catalog[1]) : undefined, company };
}

export function ShopApp() {
  const route = routeOf(window.location.pathname, window.location.search);
  if (route.kind === 'order') return <OrderPage token={route.token} />;
  return <CatalogLoader id={route.id} company={route.company} />;
}

function CatalogLoader({ id, company }: { id?: string; company?: string }) {
  const [catalog, setCatalog] = useState<PublicCatalog>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!id && !company) {
      setError('Abre el catálogo con el enlace que te compartió la tienda.');
      return;
    }
    shopApi
      .catalog({ id, company })
      .then((c) => {
        setCatalog(c);
        document.title = `${c.name} · ${c.company.name}`;
      })
      .catch((e: unknown) => setError(e instanceof ShopError ? e.message : 'No pudimos abrir el catálogo'));
  }, [id, company]);
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
  if (!catalog) return <p className="shop-muted shop-center">Cargando catálogo…</p>;
  return <CatalogView catalog={catalog} />;
}
