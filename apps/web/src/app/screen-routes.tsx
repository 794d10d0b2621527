import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router';
import { isConfigEntry, type ScreenEntry, screens } from './screens';
import { AppShell } from './layout/app-shell';
import { QueryLayout } from './query-layout';
import { RequireAuth } from './require-auth';

const NotFoundPage = lazy(() => import('../features/not-found/not-found-page'));

type Lazy = LazyExoticComponent<ComponentType>;

/** The generic list page with the entry's config (or the entry's own page); both load when the route is first visited. */
function listPageOf(entry: ScreenEntry): Lazy {
  if (!isConfigEntry(entry)) return lazy(entry.page);
  if (entry.page) return lazy(entry.page);
  return lazy(async () => {
    const [{ screen }, { ResourceListPage }] = await Promise.all([entry.load(), import('../components/crud/resource-list-page')]);
    return { default: () => <ResourceListPage config={screen} /> };
  });
}

/** The generic edit page of `${path}/:id` (users). */
function detailPageOf(entry: ScreenEntry): Lazy | undefined {
  if (!isConfigEntry(entry) || !entry.detailPage) return undefined;
  return lazy(async () => {
    const [{ screen }, { ResourceDetailPage }] = await Promise.all([entry.load(), import('../components/crud/resource-detail-page')]);
    return { default: () => <ResourceDetailPage config={screen} backTo={entry.path} /> };
  });
}

interface RouteDef {
  path: string;
  Page: Lazy;
  public: boolean;
}

/** Every route of the registry, its components created once. */
const routes: RouteDef[] = screens.flatMap((entry) => {
  const Page = listPageOf(entry);
  const own = [entry.path, ...(entry.aliases ?? [])].map((path) => ({ path, Page, public: !!entry.public }));
  const Detail = detailPageOf(entry);
  const detail = Detail ? [{ path: `${entry.path}/:id`, Page: Detail, public: false }] : [];
  // a child page answers under the screen's aliases too (/ads-messenger/{id} is /comment-to-msn/{id})
  const children = (entry.children ?? []).flatMap((child) => {
    const ChildPage = lazy(child.page);
    return [entry.path, ...(entry.aliases ?? [])].map((base) => ({ path: `${base}/${child.path}`, Page: ChildPage, public: false }));
  });
  return [...own, ...detail, ...children];
});

const routeOf = ({ path, Page }: RouteDef) => <Route key={path} path={path.replace(/^\//, '')} element={<Page />} />;

/**
 * The authenticated area (and /test), generated from app/screens.ts, with the app
 * shell around it, and the not-found page for every other path. Loaded lazily by
 * app-routes.tsx, so /login does not pay for the registry, its icons or its screens.
 */
export function ScreenRoutes() {
  return (
    <Routes>
      <Route element={<QueryLayout />}>
        <Route element={<AppShell />}>
          {routes.filter((r) => r.public).map(routeOf)}
          <Route element={<RequireAuth />}>{routes.filter((r) => !r.public).map(routeOf)}</Route>
        </Route>
      </Route>
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

export default ScreenRoutes;
