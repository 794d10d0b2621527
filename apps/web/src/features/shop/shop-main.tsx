// first: zod must not probe eval under the CSP (lib/zod-jitless.ts)
import '../../lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ShopApp } from './shop-app';
import './shop.css';

/**
 * The public shop's own entry (shop.html, decision 0031): the digital catalogue and the
 * customer's order page, without the staff app, MUI or its router (≤ 100 kB gzip of JS).
 */
try {
  // the staff app handed this address over (app-routes.tsx): it arrived
  sessionStorage.removeItem('mostrador-shop-handoff');
} catch {
  // no storage: nothing to clear
}
const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from shop.html');
createRoot(root).render(
  <StrictMode>
    <ShopApp />
  </StrictMode>,
);
